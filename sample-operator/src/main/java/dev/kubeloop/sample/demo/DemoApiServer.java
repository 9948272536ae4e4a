package dev.kubeloop.sample.demo;

import dev.kubeloop.mock.EmbeddedApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The embedded API server of the demo ({@link EmbeddedApiServer}: fabric8's mock server on a free
 * loopback port, with server-side apply and the discovery kubectl needs), with every CRD generated
 * at build time (the Website's; a kind added later comes with no edit here) created before anything
 * watches them. It stores and serves
 * objects like an API server, with watches and the status subresource, but runs no controllers:
 * no pods, no garbage collection.
 */
public final class DemoApiServer implements AutoCloseable {

    private final EmbeddedApiServer server;

    DemoApiServer() {
        server = EmbeddedApiServer.start().createGeneratedCrds(DemoApiServer.class.getClassLoader());
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
