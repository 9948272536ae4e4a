package dev.kubeloop.sample.demo;

import dev.kubeloop.mock.ServerSideApplyDispatcher;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The embedded API server of the demo: fabric8's mock server in CRUD mode on a free loopback port,
 * with the Website CRD (the one generated at build time) applied before anything watches it. It
 * stores and serves objects like an API server, with watches and the status subresource, but runs
 * no controllers: no pods, no garbage collection.
 */
public final class DemoApiServer implements AutoCloseable {

    static final String CRD = "META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml";

    /** Kept so the level sticks: the mock logs every request at INFO through java.util.logging. */
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    DemoApiServer() {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new ServerSideApplyDispatcher(new KubernetesCrudDispatcher(List.of())), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        client = server.createClient();
        applyCrd();
    }

    private void applyCrd() {
        try (InputStream crd = DemoApiServer.class.getClassLoader().getResourceAsStream(CRD)) {
            if (crd == null) {
                throw new IllegalStateException(CRD + " is not on the class path; build the sample with Maven, "
                        + "which generates it from the Website classes");
            }
            for (HasMetadata object : client.load(crd).items()) {
                client.resource(object).create();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public KubernetesClient client() {
        return client;
    }

    public String url() {
        return client.getMasterUrl().toString();
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
