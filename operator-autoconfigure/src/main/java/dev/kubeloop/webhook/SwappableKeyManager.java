package dev.kubeloop.webhook;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager whose keys can be replaced while the server runs: the SSLContext is built once
 * around it, and every new handshake asks the current delegate. That is how a rotated certificate
 * takes effect without restarting the listener (connections already open keep the certificate
 * they were established with).
 *
 * <p>State ownership: {@code delegate} is written by {@link #swap} (the SSL bundle's reload thread)
 * and read by handshakes on the server's threads; volatile is enough, each read sees one
 * complete key manager.
 */
final class SwappableKeyManager extends X509ExtendedKeyManager {

    private volatile X509ExtendedKeyManager delegate;

    SwappableKeyManager(X509ExtendedKeyManager delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    void swap(X509ExtendedKeyManager next) {
        this.delegate = Objects.requireNonNull(next, "next");
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return delegate.chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return delegate.chooseEngineClientAlias(keyType, issuers, engine);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return delegate.getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return delegate.chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return delegate.getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return delegate.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return delegate.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return delegate.getPrivateKey(alias);
    }
}
