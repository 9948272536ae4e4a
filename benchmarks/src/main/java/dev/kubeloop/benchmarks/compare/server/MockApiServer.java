package dev.kubeloop.benchmarks.compare.server;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.model.BenchCrd;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.mock.DeletePreconditionsDispatcher;
import dev.kubeloop.mock.ServerSideApplyDispatcher;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The fabric8 {@code kubernetes-server-mock} in CRUD mode, in the launcher's JVM, one fresh
 * server per contender run (so no run inherits another's objects, watches or recorded requests).
 * Contenders run in their own JVMs and reach it over loopback HTTP, so its CPU and heap are never
 * counted as theirs; it shares the machine's cores with them, as a real API server on the same
 * machine would.
 */
public final class MockApiServer implements ApiServer {

    static final String NAMESPACE = "bench";

    // the mock logs every request at INFO through java.util.logging; held so the level sticks
    private static final Logger MOCK_WEB_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private final boolean replayOnWatch;

    /** @param replayOnWatch keep the mock's watch replay of all objects (see {@link WatchFromResourceVersion}) */
    public MockApiServer(boolean replayOnWatch) {
        this.replayOnWatch = replayOnWatch;
        MOCK_WEB_SERVER_LOG.setLevel(Level.WARNING);
    }

    @Override
    public String description() {
        return "fabric8 kubernetes-server-mock 7.8.0, CRUD mode, in the launcher JVM (fresh server per run), watches "
                + (replayOnWatch ? "replay all objects (the mock's own)" : "start from the requested resourceVersion");
    }

    @Override
    public ServerSession open(String runId) {
        GenerationTracker statusWrites = new GenerationTracker();
        StatusObserver observer = new StatusObserver(statusWrites);
        ObservingCrudDispatcher dispatcher = new ObservingCrudDispatcher(observer, replayOnWatch);
        MockWebServer web = new MockWebServer();
        KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), web,
                new HashMap<>(), new ServerSideApplyDispatcher(new DeletePreconditionsDispatcher(dispatcher)), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        String url = server.url("/");
        KubernetesClient client = ClientFactory.create(url, NAMESPACE);
        // through HTTP, so the mock's CRD processor learns the plural and the status subresource
        client.apiextensions().v1().customResourceDefinitions().resource(BenchCrd.definition()).create();
        return new Session(url, client, statusWrites, observer, dispatcher, web, server);
    }

    private record Session(String masterUrl, KubernetesClient client, GenerationTracker statusWrites,
            StatusObserver observer, ObservingCrudDispatcher dispatcher, MockWebServer web,
            KubernetesMockServer server) implements ServerSession {

        @Override
        public String namespace() {
            return NAMESPACE;
        }

        @Override
        public void seed(int count) {
            List<BenchResource> objects = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                objects.add(BenchObjects.create(NAMESPACE, BenchObjects.name(i)));
            }
            dispatcher.seed(objects);
        }

        @Override
        public void forgetRecordedRequests() {
            // MockWebServer.reset() clears only the recorded requests; KubernetesMockServer.reset() would wipe the objects
            web.reset();
        }

        @Override
        public long requestCount() {
            return web.getRequestCount();
        }

        @Override
        public void close() {
            client.close();
            try {
                server.destroy();
            } catch (RuntimeException e) {
                // the run's measurements are complete; a slow teardown must not discard them. The
                // known cause: a watch closed while the mock still had events to send for it blocks
                // the event loop (WatchEventsListener.onClosed waits up to a minute for its sender,
                // whose sends need that event loop), so the HTTP server cannot close in time and its
                // vert.x instance stays (idle) until the launcher exits
                System.err.println("mock server did not shut down cleanly: " + e);
            }
            observer.close();
        }
    }
}
