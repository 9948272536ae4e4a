package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * The development registration's certificates, made with the JDK alone: a CA that validates the
 * serving certificate as PKIX does, the hosts in the subject alternative names, a server
 * certificate only (not a CA, serverAuth), and a TLS handshake that a client trusting only the CA
 * completes with host name verification.
 */
class ThrowawayCertificatesTest {

    private final ThrowawayCertificates certificates = ThrowawayCertificates.create(
            List.of("dev.example.test", "127.0.0.1", "::1"), Duration.ofDays(2));

    @Test
    void theServingCertificateValidatesAgainstTheCaAlone() throws Exception {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(certificates.ca(), null)));
        parameters.setRevocationEnabled(false);

        CertPathValidator.getInstance("PKIX").validate(factory.generateCertPath(List.of(certificates.serving())),
                parameters);
    }

    @Test
    void theServingCertificateNamesEveryHostAndServesOnly() throws Exception {
        X509Certificate serving = certificates.serving();

        assertThat(serving.getSubjectAlternativeNames().stream().map(name -> (Object) name.get(1))).containsExactly(
                "dev.example.test", "127.0.0.1", "0:0:0:0:0:0:0:1");
        assertThat(serving.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(serving.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(serving.getKeyUsage()[0]).as("digitalSignature").isTrue();
        assertThat(serving.getCriticalExtensionOIDs()).containsExactlyInAnyOrder("2.5.29.19", "2.5.29.15");
        assertThat(serving.getNotAfter().toInstant()).isAfter(Instant.now().plus(Duration.ofDays(2)).minusSeconds(60))
                .isBefore(Instant.now().plus(Duration.ofDays(3)));
        assertThat(certificates.ca().getBasicConstraints()).as("a CA").isGreaterThanOrEqualTo(0);
        assertThat(certificates.ca().getKeyUsage()[5]).as("keyCertSign").isTrue();
    }

    @Test
    void eachRunHasItsOwnCa() {
        ThrowawayCertificates other = ThrowawayCertificates.create(List.of("127.0.0.1"), Duration.ofDays(1));

        assertThat(other.ca().getPublicKey()).isNotEqualTo(certificates.ca().getPublicKey());
        assertThat(other.ca().getSerialNumber()).isNotEqualTo(certificates.ca().getSerialNumber());
    }

    @Test
    void theCaBundleIsTheCasPemInBase64() throws Exception {
        String pem = new String(Base64.getDecoder().decode(certificates.caBundle()), StandardCharsets.US_ASCII);

        assertThat(pem).startsWith("-----BEGIN CERTIFICATE-----\n").endsWith("-----END CERTIFICATE-----\n");
        assertThat(CertificateFactory.getInstance("X.509").generateCertificate(
                new java.io.ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))).isEqualTo(certificates.ca());
    }

    @Test
    void aClientTrustingOnlyTheCaCompletesAHandshakeWithHostNameVerification() throws Exception {
        SSLContext serverContext = certificates.serverTls().context();
        try (SSLServerSocket server = (SSLServerSocket) serverContext.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread accept = new Thread(() -> {
                try (SSLSocket socket = (SSLSocket) server.accept()) {
                    socket.startHandshake();
                    socket.getOutputStream().write(1);
                } catch (Exception e) {
                    // the client's assertion reports the failure
                }
            });
            accept.start();
            try (SSLSocket client = (SSLSocket) trustingTheCa().getSocketFactory().createSocket("127.0.0.1",
                    server.getLocalPort())) {
                var parameters = client.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                client.setSSLParameters(parameters);
                client.startHandshake();
                assertThat(client.getInputStream().read()).isEqualTo(1);
                assertThat(client.getSession().getPeerCertificates()[0]).isEqualTo(certificates.serving());
            }
            accept.join(30_000);
        }
    }

    @Test
    void aCertificateNeedsAHost() {
        assertThatThrownBy(() -> ThrowawayCertificates.create(List.of(), Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private SSLContext trustingTheCa() throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("ca", certificates.ca());
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
