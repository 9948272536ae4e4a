package dev.kubeloop.webhook;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The webhook server's TLS: its certificate and key (as a key manager), the protocols and cipher
 * suites it allows, and {@link #update} for a rotated certificate (cert-manager renews it; the
 * kubelet updates the mounted Secret; Spring Boot's SSL bundle notices and hands the new one
 * over). The API server does not authenticate itself to webhooks by default, so there is no
 * client authentication.
 *
 * <p>State ownership: the key manager is swapped by {@link #update} (any thread) and read by
 * handshakes; {@code certificate} is volatile and only describes what is served, for health.
 */
public final class ServerTls {

    private final SwappableKeyManager keyManager;
    private final SSLContext context;
    private final String[] protocols;
    private final String[] cipherSuites;
    private volatile X509Certificate certificate;

    private ServerTls(X509ExtendedKeyManager keyManager, X509Certificate certificate, String protocol,
            String[] protocols, String[] cipherSuites) throws GeneralSecurityException {
        this.keyManager = new SwappableKeyManager(keyManager);
        this.certificate = Objects.requireNonNull(certificate, "certificate");
        this.context = SSLContext.getInstance(protocol);
        this.context.init(new KeyManager[] {this.keyManager}, null, null);
        this.protocols = protocols == null ? null : protocols.clone();
        this.cipherSuites = cipherSuites == null ? null : cipherSuites.clone();
    }

    /**
     * TLS with {@code keyManager}'s key and {@code certificate} (the leaf it serves).
     *
     * @param protocol the SSLContext protocol ({@code TLS})
     * @param protocols enabled protocols ({@code TLSv1.3}); null: the JDK's defaults
     * @param cipherSuites enabled cipher suites; null: the JDK's defaults
     */
    public static ServerTls of(X509ExtendedKeyManager keyManager, X509Certificate certificate, String protocol,
            String[] protocols, String[] cipherSuites) throws GeneralSecurityException {
        return new ServerTls(keyManager, certificate, protocol, protocols, cipherSuites);
    }

    /** New handshakes use {@code keyManager} from now on. */
    public void update(X509ExtendedKeyManager keyManager, X509Certificate certificate) {
        this.keyManager.swap(keyManager);
        this.certificate = Objects.requireNonNull(certificate, "certificate");
    }

    /** The certificate served to new connections. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** When the served certificate expires. */
    public Instant notAfter() {
        return certificate.getNotAfter().toInstant();
    }

    SSLContext context() {
        return context;
    }

    SSLParameters parameters() {
        SSLParameters parameters = context.getDefaultSSLParameters();
        if (protocols != null) {
            parameters.setProtocols(protocols);
        }
        if (cipherSuites != null) {
            parameters.setCipherSuites(cipherSuites);
        }
        parameters.setNeedClientAuth(false);
        return parameters;
    }
}
