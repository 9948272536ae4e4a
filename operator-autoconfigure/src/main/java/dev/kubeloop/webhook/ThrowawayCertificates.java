package dev.kubeloop.webhook;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A CA made for one run of the process and a serving certificate it signed, held in memory only:
 * what the development registration of webhooks serves ({@code kubeloop.webhook.dev-registration.*}),
 * with the CA in the registrations' {@code caBundle}. Nothing is written to disk and the CA's key is
 * dropped once it signed, so the certificate is worthless beyond this process. EC P-256, valid for
 * {@code validity} from five minutes ago (clock skew). Built with the JDK alone ({@link Der}).
 * Immutable.
 */
public final class ThrowawayCertificates {

    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|.*:.*");
    private static final String EC_WITH_SHA256 = "1.2.840.10045.4.3.2";

    private final X509Certificate ca;
    private final X509Certificate serving;
    private final PrivateKey servingKey;

    private ThrowawayCertificates(X509Certificate ca, X509Certificate serving, PrivateKey servingKey) {
        this.ca = ca;
        this.serving = serving;
        this.servingKey = servingKey;
    }

    /**
     * A new CA, and a certificate it signed for {@code hosts} (IP addresses or DNS names; the first
     * is also the subject's common name).
     */
    public static ThrowawayCertificates create(List<String> hosts, Duration validity) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("a serving certificate needs at least one host");
        }
        try {
            KeyPair caKeys = keys();
            ZonedDateTime notBefore = ZonedDateTime.now(ZoneOffset.UTC).minusMinutes(5);
            ZonedDateTime notAfter = notBefore.plus(validity).plusMinutes(5);
            byte[] caName = name("kubeloop-dev-ca");
            X509Certificate ca = sign(caName, caName, caKeys.getPublic(), notBefore, notAfter, Der.concat(
                    extension("2.5.29.19", true, Der.sequence(Der.bool(true))),
                    // keyCertSign (5), cRLSign (6)
                    extension("2.5.29.15", true, Der.namedBits(5, 6))), caKeys.getPrivate());
            KeyPair servingKeys = keys();
            X509Certificate serving = sign(caName, name(hosts.get(0)), servingKeys.getPublic(), notBefore, notAfter,
                    Der.concat(extension("2.5.29.19", true, Der.sequence()),
                            // digitalSignature (0)
                            extension("2.5.29.15", true, Der.namedBits(0)),
                            // serverAuth
                            extension("2.5.29.37", false, Der.sequence(Der.oid("1.3.6.1.5.5.7.3.1"))),
                            extension("2.5.29.17", false, subjectAlternativeNames(hosts))),
                    caKeys.getPrivate());
            return new ThrowawayCertificates(ca, serving, servingKeys.getPrivate());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot make the throwaway webhook certificates: " + e.getMessage(), e);
        }
    }

    /** {@code caBundle} of a webhook configuration: the CA's PEM, base64-encoded. */
    public String caBundle() {
        return Base64.getEncoder().encodeToString(caPem().getBytes(StandardCharsets.US_ASCII));
    }

    /** The CA certificate in PEM. */
    public String caPem() {
        try {
            return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
                    .encodeToString(ca.getEncoded()) + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public X509Certificate ca() {
        return ca;
    }

    public X509Certificate serving() {
        return serving;
    }

    /** The serving certificate and its key, for {@link ServerTls#of}. */
    public X509ExtendedKeyManager keyManager() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("webhook", servingKey, new char[0], new X509Certificate[] {serving, ca});
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, new char[0]);
            for (KeyManager manager : factory.getKeyManagers()) {
                if (manager instanceof X509ExtendedKeyManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("the JDK made no X.509 key manager");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot load the throwaway webhook certificate: " + e.getMessage(), e);
        }
    }

    /** TLS serving the certificate with the JDK's default protocols and cipher suites. */
    public ServerTls serverTls() {
        try {
            return ServerTls.of(keyManager(), serving, "TLS", null, null);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot make TLS from the throwaway webhook certificate", e);
        }
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(byte[] issuer, byte[] subject, PublicKey key, ZonedDateTime notBefore,
            ZonedDateTime notAfter, byte[] extensions, PrivateKey signer) throws GeneralSecurityException {
        byte[] algorithm = Der.sequence(Der.oid(EC_WITH_SHA256));
        byte[] tbs = Der.sequence(
                Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
                Der.integer(new BigInteger(63, new SecureRandom()).add(BigInteger.ONE)),
                algorithm, issuer, Der.sequence(Der.time(notBefore), Der.time(notAfter)), subject,
                key.getEncoded(), // SubjectPublicKeyInfo, DER already
                Der.explicit(3, Der.sequence(extensions)));
        Signature signature = Signature.getInstance("SHA256withECDSA");
        signature.initSign(signer);
        signature.update(tbs);
        byte[] certificate = Der.sequence(tbs, algorithm, Der.bitString(signature.sign()));
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificate));
    }

    /** A Name of one common name. */
    private static byte[] name(String commonName) {
        return Der.sequence(Der.set(Der.sequence(Der.oid("2.5.4.3"), Der.utf8String(commonName))));
    }

    private static byte[] extension(String oid, boolean critical, byte[] value) {
        return critical ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
                : Der.sequence(Der.oid(oid), Der.octetString(value));
    }

    private static byte[] subjectAlternativeNames(List<String> hosts) throws IOException {
        List<byte[]> names = new ArrayList<>();
        for (String host : new LinkedHashSet<>(hosts)) {
            names.add(IP_LITERAL.matcher(host).matches()
                    ? Der.implicit(7, InetAddress.getByName(host).getAddress()) // iPAddress
                    : Der.implicit(2, host.getBytes(StandardCharsets.US_ASCII))); // dNSName
        }
        return Der.sequence(names.toArray(byte[][]::new));
    }
}
