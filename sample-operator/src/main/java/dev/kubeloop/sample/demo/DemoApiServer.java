package dev.kubeloop.sample.demo;

import dev.kubeloop.mock.EmbeddedApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The embedded API server of the demo ({@link EmbeddedApiServer}: fabric8's mock server on a free
 * loopback port, with server-side apply and the discovery kubectl needs), with the Website CRD
 * (the one generated at build time) created before anything watches it. It stores and serves
 * objects like an API server, with watches and the status subresource, but runs no controllers:
 * no pods, no garbage collection.
 */
public final class DemoApiServer implements AutoCloseable {

    static final String CRD = "META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml";

    private final EmbeddedApiServer server;

    DemoApiServer() {
        server = EmbeddedApiServer.start().createAllFromClasspath(DemoApiServer.class.getClassLoader(), CRD);
    }

    public KubernetesClient client() {
        return server.client();
    }

    public String url() {
        return server.url();
    }

    @Override
    public void close() {
        server.close();
    }
}
