package dev.kubeloop.test;

import dev.kubeloop.mock.ServerSideApplyDispatcher;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * fabric8's mock API server in CRUD mode on a loopback port: it stores objects, serves list and
 * watch, honours the status subresource of the CRDs applied through it; it has no server-side
 * apply, no garbage collection and no controllers (see docs/testing.md).
 */
final class MockTestCluster implements TestCluster {

    static final String NAMESPACE = "test";

    /** Kept so the level sticks: the mock logs every request at INFO through java.util.logging. */
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    private MockTestCluster() {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new ServerSideApplyDispatcher(new KubernetesCrudDispatcher(List.of())), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        client = server.createClient(); // default namespace "test"
    }

    static MockTestCluster start(List<String> crds) {
        MockTestCluster cluster = new MockTestCluster();
        try {
            for (String manifest : crds) {
                for (HasMetadata crd : cluster.client.load(
                        new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).items()) {
                    cluster.client.resource(crd).create();
                }
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    @Override
    public KubernetesClient client() {
        return client;
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
        client.close();
        server.destroy();
    }
}
