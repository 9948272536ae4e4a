package dev.kubeloop.test.webhook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway CA and a serving certificate it signed, as the API server wants a webhook's: the
 * serving certificate names the webhook's host ({@code 127.0.0.1} and {@code localhost} by
 * default) in its subject alternative names, and the CA goes into the webhook configuration's
 * {@code caBundle}. EC P-256 keys; PEM files as a {@code kubernetes.io/tls} Secret holds them
 * ({@code tls.crt}, {@code tls.key} in PKCS#8, {@code ca.crt}). For tests only. Immutable.
 */
public final class TestCertificates {

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private final X509Certificate ca;
    private final X509Certificate serving;
    private final KeyPair servingKeys;

    private TestCertificates(X509Certificate ca, X509Certificate serving, KeyPair servingKeys) {
        this.ca = ca;
        this.serving = serving;
        this.servingKeys = servingKeys;
    }

    /** A CA and a certificate for 127.0.0.1 and localhost, valid for a day. */
    public static TestCertificates forLoopback() {
        return create(List.of("127.0.0.1", "localhost"), Duration.ofDays(1));
    }

    /** A CA and a certificate for {@code hosts} (IP addresses or DNS names). */
    public static TestCertificates create(List<String> hosts, Duration validity) {
        try {
            KeyPair caKeys = keys();
            Instant now = Instant.now();
            X500Name caName = new X500Name("CN=kubeloop-test-ca");
            JcaX509v3CertificateBuilder caBuilder = new JcaX509v3CertificateBuilder(caName, serial(),
                    Date.from(now.minusSeconds(300)), Date.from(now.plus(validity)), caName, caKeys.getPublic());
            caBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            caBuilder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            X509Certificate ca = sign(caBuilder, caKeys);

            KeyPair servingKeys = keys();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caName, serial(),
                    Date.from(now.minusSeconds(300)), Date.from(now.plus(validity)),
                    new X500Name("CN=" + hosts.get(0)), servingKeys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            List<GeneralName> names = new ArrayList<>();
            for (String host : hosts) {
                names.add(new GeneralName(host.matches("[0-9.]+|.*:.*") ? GeneralName.iPAddress : GeneralName.dNSName,
                        host));
            }
            builder.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(names.toArray(GeneralName[]::new)));
            return new TestCertificates(ca, sign(builder, caKeys), servingKeys);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot make test certificates", e);
        }
    }

    /** Writes {@code tls.crt}, {@code tls.key} and {@code ca.crt} into {@code directory} (created if needed). */
    public Path writeTo(Path directory) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve("tls.crt"), pem("CERTIFICATE", serving.getEncoded()));
            Files.writeString(directory.resolve("tls.key"), pem("PRIVATE KEY", servingKeys.getPrivate().getEncoded()));
            Files.writeString(directory.resolve("ca.crt"), caPem());
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The CA certificate in PEM, as a webhook configuration's {@code caBundle} carries it (base64 of this). */
    public String caPem() {
        try {
            return pem("CERTIFICATE", ca.getEncoded());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code caBundle}: the CA's PEM, base64-encoded. */
    public String caBundle() {
        return Base64.getEncoder().encodeToString(caPem().getBytes(StandardCharsets.US_ASCII));
    }

    /** The serving certificate and its key as a key manager, for a {@code ServerTls} built by hand. */
    public javax.net.ssl.X509ExtendedKeyManager keyManager() {
        try {
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("webhook", servingKeys.getPrivate(), new char[0], new X509Certificate[] {serving});
            javax.net.ssl.KeyManagerFactory factory = javax.net.ssl.KeyManagerFactory.getInstance(
                    javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, new char[0]);
            for (javax.net.ssl.KeyManager manager : factory.getKeyManagers()) {
                if (manager instanceof javax.net.ssl.X509ExtendedKeyManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("no X.509 key manager");
        } catch (java.security.GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public X509Certificate ca() {
        return ca;
    }

    public X509Certificate serving() {
        return serving;
    }

    private static KeyPair keys() throws java.security.GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder builder, KeyPair signer) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
