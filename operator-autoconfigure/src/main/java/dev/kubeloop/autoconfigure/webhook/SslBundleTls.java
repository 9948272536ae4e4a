package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.webhook.ServerTls;
import dev.kubeloop.webhook.WebhookSettings;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * The webhook server's TLS from a Spring Boot SSL bundle, and kept up to date with it: with
 * {@code spring.ssl.bundle.pem.<name>.reload-on-update=true} Spring Boot watches the PEM files (a
 * Secret's volume, which the kubelet updates when cert-manager renews the certificate) and hands
 * the new bundle to {@link SslBundles#addBundleUpdateHandler}; the server's next handshakes use it.
 * Logs the certificate's expiry, never its contents. Stateless.
 */
final class SslBundleTls {

    private static final Logger log = LoggerFactory.getLogger(SslBundleTls.class);

    private SslBundleTls() {
    }

    /** The bundle's TLS, updated whenever the bundle is reloaded. */
    static ServerTls watched(SslBundles bundles, String name) {
        SslBundle bundle;
        try {
            bundle = bundles.getBundle(name);
        } catch (NoSuchSslBundleException e) {
            String property = WebhookSettings.SSL_BUNDLE.property();
            throw new KubeloopConfigurationException("The webhook server needs a certificate: " + property
                    + " names the SSL bundle '" + name + "', which is not defined (defined: "
                    + bundles.getBundleNames() + ").",
                    "Define spring.ssl.bundle.pem." + name + ".keystore.certificate and .private-key (the serving "
                            + "certificate and key as PEM files, e.g. mounted from a Secret) with spring.ssl.bundle.pem."
                            + name + ".reload-on-update=true, name another bundle in " + property
                            + ", or set " + WebhookSettings.ENABLED.property() + "=false.", e);
        }
        ServerTls tls;
        try {
            tls = ServerTls.of(keyManager(bundle, name), leaf(bundle, name), bundle.getProtocol(),
                    bundle.getOptions().getEnabledProtocols(), bundle.getOptions().getCiphers());
        } catch (GeneralSecurityException e) {
            throw new KubeloopConfigurationException("The SSL bundle '" + name + "' of the webhook server cannot "
                    + "make a TLS context: " + e.getMessage() + ".", "Check the bundle's protocol and key.", e);
        }
        bundles.addBundleUpdateHandler(name, updated -> {
            try {
                tls.update(keyManager(updated, name), leaf(updated, name));
                log.info("Webhook server certificate reloaded from SSL bundle '{}': valid until {}", name,
                        tls.notAfter());
            } catch (RuntimeException e) {
                log.error("Webhook server keeps its certificate (valid until {}): the reloaded SSL bundle '{}' is "
                        + "unusable: {}", tls.notAfter(), name, e.getMessage());
            }
        });
        return tls;
    }

    private static X509ExtendedKeyManager keyManager(SslBundle bundle, String name) {
        for (KeyManager manager : bundle.getManagers().getKeyManagers()) {
            if (manager instanceof X509ExtendedKeyManager x509) {
                return x509;
            }
        }
        throw noKey(name);
    }

    /** The certificate the bundle serves: its key's, or the first key entry's. */
    private static X509Certificate leaf(SslBundle bundle, String name) {
        KeyStore store = bundle.getStores().getKeyStore();
        if (store == null) {
            throw noKey(name);
        }
        try {
            String alias = bundle.getKey().getAlias();
            for (String candidate : alias != null ? java.util.List.of(alias) : Collections.list(store.aliases())) {
                if (store.isKeyEntry(candidate)) {
                    Certificate[] chain = store.getCertificateChain(candidate);
                    if (chain != null && chain.length > 0 && chain[0] instanceof X509Certificate certificate) {
                        return certificate;
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new KubeloopConfigurationException("The SSL bundle '" + name + "' cannot be read: " + e.getMessage()
                    + ".", "Check the bundle's key store.", e);
        }
        throw noKey(name);
    }

    private static KubeloopConfigurationException noKey(String name) {
        return new KubeloopConfigurationException("The SSL bundle '" + name + "' of the webhook server has no "
                + "private key with an X.509 certificate.", "Set spring.ssl.bundle.pem." + name
                        + ".keystore.certificate and .keystore.private-key.");
    }
}
