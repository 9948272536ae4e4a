package dev.kubeloop.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed serving certificate for 127.0.0.1 and localhost (EC P-256), for the webhook
 * server's TLS tests: its PEM files, and an SSLContext that trusts it. Immutable.
 */
public record TestCertificate(X509Certificate certificate, KeyPair keys) {

    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

    public static TestCertificate create(Duration validity) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            Instant now = Instant.now();
            X500Name subject = new X500Name("CN=kubeloop-webhook-test");
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
                    BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(now.minusSeconds(60)),
                    Date.from(now.plus(validity)), subject, keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, InetAddress.getLoopbackAddress().getHostAddress()),
                new GeneralName(GeneralName.dNSName, "localhost")}));
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
            return new TestCertificate(certificate, keys);
        } catch (Exception e) {
            throw new IllegalStateException("cannot make a test certificate", e);
        }
    }

    /** Writes {@code tls.crt} and {@code tls.key} into {@code directory}, as a kubernetes.io/tls Secret mounts them. */
    public void writeTo(Path directory) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve("tls.crt"), pem("CERTIFICATE", certificate.getEncoded()));
            // PKCS#8: Spring Boot 4.1.1 misreads Bouncy Castle's SEC1 ("EC PRIVATE KEY") output of a JDK key
            // (its signatures do not verify); OpenSSL's, cert-manager's and Helm's SEC1 keys read fine
            Files.writeString(directory.resolve("tls.key"), pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A server's key manager serving this certificate and its key. */
    public X509ExtendedKeyManager keyManager() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("webhook", keys.getPrivate(), new char[0], new X509Certificate[] {certificate});
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, new char[0]);
            for (KeyManager manager : factory.getKeyManagers()) {
                if (manager instanceof X509ExtendedKeyManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("no X509 key manager");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client context trusting only this certificate. */
    public SSLContext trustingContext() {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("webhook", certificate);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
