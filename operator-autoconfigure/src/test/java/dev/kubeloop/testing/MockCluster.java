package dev.kubeloop.testing;

import dev.kubeloop.mock.WatchClosingOffTheEventLoop;
import dev.kubeloop.mock.DeletePreconditionsDispatcher;
import dev.kubeloop.mock.ServerSideApplyDispatcher;
import dev.kubeloop.mock.SetBasedSelectors;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.kubernetes.client.utils.Utils;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * A fabric8 mock API server in CRUD mode (expectations, when set, win over CRUD) with a client,
 * one per test. Records every request, so tests can count watches and PATCHes. Watch closes are
 * handled off the server's event loop (see {@link WatchClosingOffTheEventLoop}). Chosen requests
 * can be answered with API errors instead (see {@link #faults()}).
 */
public final class MockCluster implements AutoCloseable {

    /** MockWebServer logs every request at INFO through java.util.logging; keep the reference so the level sticks. */
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
    }

    private final KubernetesMockServer server;
    private final WatchClosingOffTheEventLoop dispatcher;
    private final KubernetesClient client;
    private final List<RecordedRequest> requests = new ArrayList<>();
    private final ApiFaults faults = new ApiFaults();

    private MockCluster() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMixedDispatcher mixed = new KubernetesMixedDispatcher(responses);
        SetBasedSelectors.install(mixed); // key in (a,b): what sharded caches select their buckets with
        dispatcher = new WatchClosingOffTheEventLoop(mixed);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new FaultInjectingDispatcher(faults, new ServerSideApplyDispatcher(new DeletePreconditionsDispatcher(dispatcher))), false);
        server.init();
        client = server.createClient();
    }

    /** A mock cluster with the Widget CRD installed. */
    public static MockCluster withWidgetCrd() {
        MockCluster cluster = new MockCluster();
        cluster.install(Widget.class);
        return cluster;
    }

    /** A mock cluster without any CRD. */
    public static MockCluster empty() {
        return new MockCluster();
    }

    public void install(Class<? extends CustomResource<?, ?>> type) {
        CustomResourceDefinition crd = CustomResourceDefinitionContext.v1CRDFromCustomResourceType(type)
                .editSpec().editFirstVersion().withNewSubresources().withNewStatus().endStatus().endSubresources()
                .endVersion().endSpec().build();
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    }

    public KubernetesClient client() {
        return client;
    }

    /**
     * Creates {@code object} with a random uid, as a real API server gives one. The mock numbers
     * uids ({@code 00000000-0000-0000-0000-000000000001}, ...), which a hash of the uid (a sharded
     * operator's) does not spread; before the create, this sets the mock's counter to a random
     * value. Creates by other threads at the same time get neighbouring uids.
     */
    public <T extends HasMetadata> T createWithRandomUid(T object) {
        synchronized (MockCluster.class) {
            try {
                Field counter = Utils.class.getDeclaredField("leastSigBits");
                counter.setAccessible(true);
                ((AtomicLong) counter.get(null)).set(ThreadLocalRandom.current().nextLong());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("fabric8's Utils.generateId changed", e);
            }
            return client.resource(object).create();
        }
    }

    /**
     * Another client of this server, e.g. one per replica in a leader election test, customised
     * (an interceptor); the caller closes it.
     */
    public KubernetesClient newClient(Consumer<KubernetesClientBuilder> customizer) {
        return server.createClient(customizer);
    }

    /** The API errors this server answers chosen requests with, instead of serving them. */
    public ApiFaults faults() {
        return faults;
    }

    public KubernetesMockServer server() {
        return server;
    }

    /**
     * Closes the server side of every watch open now, as a restarted API server or a proxy's idle
     * timeout would; clients must watch again by themselves. With {@code expire}, each watch first
     * gets a 410 Gone (Expired) event, so an informer must list again too.
     *
     * @return how many watches were cut
     */
    public int cutWatches(boolean expire) {
        return dispatcher.cutOpenWatches(expire);
    }

    /**
     * {@link #cutWatches} once a watch whose path (without its query) matches {@code pathPattern} is
     * open on the server side, waiting for it with the usual deadline. An informer says it watches a
     * moment before the server has registered its watch, and a cut in between finds nothing to cut
     * (it happened in CI: the informer watched on and the test waited in vain).
     *
     * @return how many watches were cut, at least one
     */
    public int cutWatchesOnceOpen(String pathPattern, boolean expire) {
        Pattern pattern = Pattern.compile(pathPattern);
        Eventually.eventually().until(() -> dispatcher.watchOpen(pattern));
        return cutWatches(expire);
    }

    /** Every request the server received so far (accumulated across calls). */
    public synchronized List<RecordedRequest> requests() {
        try {
            RecordedRequest next;
            while ((next = server.takeRequest(0, TimeUnit.MILLISECONDS)) != null) {
                requests.add(next);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.copyOf(requests);
    }

    public List<RecordedRequest> requests(Predicate<RecordedRequest> filter) {
        return requests().stream().filter(filter).toList();
    }

    /** Server-side apply requests (PATCH, {@code application/apply-patch+yaml}) whose path starts with {@code pathPrefix}. */
    public List<RecordedRequest> applies(String pathPrefix) {
        return requests(request -> "PATCH".equals(request.getMethod()) && request.getPath().startsWith(pathPrefix)
                && String.valueOf(request.getHeader("Content-Type")).startsWith("application/apply-patch"));
    }

    /** The Events of {@code namespace} with {@code reason}, as stored. */
    public List<Event> events(String namespace, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> reason.equals(event.getReason())).toList();
    }

    /** The reasons of the Events of {@code namespace}, as stored. */
    public List<String> eventReasons(String namespace) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream().map(Event::getReason).toList();
    }

    /** Watch requests whose path contains {@code pathPart}. */
    public List<RecordedRequest> watches(String pathPart) {
        return requests(r -> r.getPath().contains(pathPart) && r.getPath().contains("watch=true"));
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
