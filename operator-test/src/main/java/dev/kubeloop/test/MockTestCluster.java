package dev.kubeloop.test;

import dev.kubeloop.mock.EmbeddedApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * fabric8's mock API server in CRUD mode on a loopback port ({@link EmbeddedApiServer}): it stores
 * objects, serves list and watch, honours the status subresource of the CRDs applied through it,
 * answers server-side apply with an approximation and discovery; it has no garbage collection and
 * no controllers (see docs/testing.md).
 */
final class MockTestCluster implements TestCluster {

    static final String NAMESPACE = "test";

    private final EmbeddedApiServer server;

    private MockTestCluster(EmbeddedApiServer server) {
        this.server = server;
    }

    static MockTestCluster start(List<String> crds) {
        EmbeddedApiServer server = EmbeddedApiServer.start(); // its client's default namespace is "test"
        for (String manifest : crds) {
            server.createAll(manifest); // closes the server if a CRD cannot be created
        }
        return new MockTestCluster(server);
    }

    @Override
    public KubernetesClient client() {
        return server.client();
    }

    @Override
    public String namespace() {
        return NAMESPACE;
    }

    @Override
    public boolean real() {
        return false;
    }

    @Override
    public void testFailed() {
    }

    @Override
    public void close() {
        server.close();
    }
}
