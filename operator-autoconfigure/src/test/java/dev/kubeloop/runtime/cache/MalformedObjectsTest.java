package dev.kubeloop.runtime.cache;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Objects from the API server that are not what the Java model expects: fields of the wrong JSON
 * type (written through an older CRD version or preserved unknown fields; created here through
 * the untyped API so that no typed client can refuse them), unknown fields, missing optional
 * parts, huge annotations. The informer must neither fail nor stall, every readable object keeps
 * being reconciled, an unreadable one is left out and reported once (a WARN naming kind, key and
 * field, and a Warning Event), and nothing loops.
 */
class MalformedObjectsTest extends MockClusterTestSupport {

    private static final String SECRET_LOOKING_VALUE = "extra-large-value";
    private static final String WIDGETS_PATH = "/apis/kubeloop.dev/v1/widgets";

    @Test
    void anObjectThatDoesNotReadAsItsTypeIsLeftOutOfTheFirstListAndTheOthersAreReconciled() {
        try (CapturedLogs logs = CapturedLogs.of(UnreadableObjects.class.getName(), Level.WARN)) {
            createRaw("bad", Map.of("spec", Map.of("color", "red", "size", SECRET_LOOKING_VALUE)));
            client.resource(Widget.named("ns", "good-1")).create();
            client.resource(Widget.named("ns", "good-2")).create();
            RecordingReconciler reconciler = new RecordingReconciler();
            manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);

            long started = System.nanoTime();
            manager.start(); // with fabric8's informer alone, the whole first list fails and start throws
            eventually().until(() -> reconciler.count("ns/good-1") == 1 && reconciler.count("ns/good-2") == 1);
            long allReconciledMillis = (System.nanoTime() - started) / 1_000_000;
            // the informer follows the API server: an object created now is reconciled too
            client.resource(Widget.named("ns", "good-3")).create();
            eventually().until(() -> reconciler.count("ns/good-3") == 1);

            assertThat(reconciler.count("ns/bad")).isZero();
            assertThat(cachedVersion("bad")).isEmpty();
            assertThat(manager.informers()).singleElement().satisfies(informer -> {
                assertThat(informer.failed()).isFalse();
                assertThat(informer.cachedObjects()).isEqualTo(3);
            });
            Event warning = awaitWarning("bad");
            assertThat(warning.getMessage()).contains("field spec.size", "Cannot deserialize value of type `int`")
                    .doesNotContain(SECRET_LOOKING_VALUE);
            assertThat(warning.getSource().getComponent()).isEqualTo(ControllerManager.INFORMER_EVENT_SOURCE);
            List<ILoggingEvent> lines = logs.events(Level.WARN, UnreadableObjects.class);
            assertThat(lines).hasSize(1);
            assertThat(lines.get(0).getFormattedMessage()).contains("kind=Widget", "key=ns/bad", "field=spec.size",
                    "reason=Cannot deserialize value of type `int`").doesNotContain(SECRET_LOOKING_VALUE);
            int lists = listRequests();
            assertThat(lists).as("the typed list that failed, then the untyped one").isEqualTo(2);
            System.out.println("[reliability] scenario=unreadable-object-in-first-list load=3 readable + 1 unreadable "
                    + "Widget faults=spec.size is a string, the model an int result=started, 3/3 readable reconciled, "
                    + "unreadable left out and reported figures=startToReadableReconciledMs=" + allReconciledMillis
                    + " listRequests=" + lists + " warnLines=1 warningEvents=" + warningsAbout("bad").size()
                    + " unreadableReconciles=0");
        }
    }

    @Test
    void anUnreadableWatchEventCostsOneRelistAndTheInformerKeepsRunning() {
        try (CapturedLogs logs = CapturedLogs.of(UnreadableObjects.class.getName(), Level.WARN)) {
            RecordingReconciler reconciler = new RecordingReconciler();
            manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
            manager.start();
            client.resource(Widget.named("ns", "good-1")).create();
            eventually().until(() -> reconciler.count("ns/good-1") == 1);
            int listsBefore = listRequests();

            long broken = System.nanoTime();
            // fabric8 alone: the watch closes on this event and its default handler stops the informer for good
            createRaw("bad", Map.of("spec", "not an object"));
            eventually().until(() -> logs.events(Level.WARN, UnreadableObjects.class).size() == 1);
            long reportedMillis = (System.nanoTime() - broken) / 1_000_000;
            awaitWatching(); // the mock cannot replay from a resourceVersion: create nothing before the new watch is open
            for (String name : List.of("good-2", "good-3", "good-4")) {
                client.resource(Widget.named("ns", name)).create();
                eventually().until(() -> reconciler.count("ns/" + name) == 1);
            }
            long recoveredMillis = (System.nanoTime() - broken) / 1_000_000;

            // good-3 and good-4 came through the new watch, after the re-list: had anything looped, there would be more lists
            int relists = listRequests() - listsBefore;
            assertThat(relists).as("one re-list: the typed page that failed, then the untyped one").isEqualTo(2);
            assertThat(manager.informers()).singleElement().satisfies(informer -> {
                assertThat(informer.failed()).isFalse();
                assertThat(informer.watchRestarts()).isEqualTo(1);
                assertThat(informer.cachedObjects()).isEqualTo(4);
            });
            assertThat(reconciler.count("ns/bad")).isZero();
            assertThat(awaitWarning("bad").getMessage()).contains("field spec");
            assertThat(logs.events(Level.WARN, UnreadableObjects.class)).singleElement()
                    .satisfies(line -> assertThat(line.getFormattedMessage()).contains("key=ns/bad", "field=spec"));
            System.out.println("[reliability] scenario=unreadable-object-in-watch load=4 readable Widgets, 1 unreadable "
                    + "created while running faults=spec is a string, the model an object result=informer kept "
                    + "running, readable objects reconciled figures=reportedAfterMs=" + reportedMillis
                    + " nextThreeReconciledAfterMs=" + recoveredMillis + " listRequests=" + relists
                    + " watchRestarts=1 unreadableReconciles=0");
        }
    }

    @Test
    void aCachedObjectThatTurnsUnreadableLeavesTheCacheAndComesBackWhenFixed() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();
        client.resource(Widget.named("ns", "shifty")).create();
        client.resource(Widget.named("ns", "steady")).create();
        eventually().until(() -> reconciler.count("ns/shifty") == 1 && reconciler.count("ns/steady") == 1);

        rawWidgets().withName("shifty").edit(object -> withSpec(object, Map.of("size", SECRET_LOOKING_VALUE)));
        // no reconcile on stale data: the object leaves the cache, and its controller sees it as gone
        eventually().until(() -> cachedVersion("shifty").isEmpty());
        awaitWarning("shifty");
        assertThat(reconciler.count("ns/shifty")).isEqualTo(1);
        awaitWatching();

        rawWidgets().withName("shifty").edit(object -> withSpec(object, Map.of("color", "green", "size", 3)));
        eventually().until(() -> reconciler.count("ns/shifty") == 2);
        assertThat(reconciler.callsFor("ns/shifty").get(1).widget().getSpec().getSize()).isEqualTo(3);
        client.resources(Widget.class).inNamespace("ns").withName("steady").edit(widget -> {
            widget.getMetadata().setLabels(Map.of("touched", "yes"));
            return widget;
        });
        String touched = stored("steady").getMetadata().getResourceVersion();
        eventually().until(() -> cachedVersion("steady").equals(Optional.of(touched)));
        assertThat(manager.informers()).singleElement().satisfies(informer -> assertThat(informer.failed()).isFalse());
    }

    @Test
    void objectsWithoutSpecStatusLabelsOrAnnotationsAreReconciledAndGetAStatus() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage("spec " + (widget.getSpec() == null ? "missing" : "present"));
            context.updateStatus(widget);
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        createRaw("bare-before-start", Map.of());
        manager.start();
        createRaw("bare-after-start", Map.of());
        createRaw("empty-spec", Map.of("spec", Map.of()));

        Controller<?> controller = manager.controller("widget").orElseThrow();
        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) >= 3);
        assertThat(controller.count(ReconcileOutcome.ERROR)).isZero();
        assertThat(stored("bare-before-start").getStatus().getMessage()).isEqualTo("spec missing");
        assertThat(stored("bare-after-start").getStatus().getMessage()).isEqualTo("spec missing");
        assertThat(stored("empty-spec").getStatus().getMessage()).isEqualTo("spec present");
    }

    @Test
    void unknownFieldsAreReadLikeClientGoDoesByAClientThatIgnoresThem() {
        ObjectMapper lenient = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        KubernetesClient ignoring = cluster.newClient(builder -> builder.withKubernetesSerialization(
                new KubernetesSerialization(lenient, true)));
        try {
            manager = ControllerManager.builder(ignoring).shutdownTimeout(Duration.ofSeconds(5)).build();
            RecordingReconciler reconciler = new RecordingReconciler();
            manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
            createUnknownFieldVariants();
            manager.start();

            eventually().until(() -> reconciler.calls().size() >= 4);
            assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key).containsExactlyInAnyOrder(
                    "ns/unknown-in-metadata", "ns/unknown-in-spec", "ns/unknown-at-top", "ns/unknown-in-status");
            assertThat(reconciler.callsFor("ns/unknown-in-spec").get(0).widget().getSpec().getColor()).isEqualTo("red");
        } finally {
            manager.stop();
            ignoring.close();
        }
    }

    @Test
    void unknownFieldsOutsideMetadataMakeFabric8sDefaultClientLeaveTheObjectOutAndSayWhy() {
        try (CapturedLogs logs = CapturedLogs.of(UnreadableObjects.class.getName(), Level.WARN)) {
            RecordingReconciler reconciler = new RecordingReconciler();
            manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
            createUnknownFieldVariants();
            manager.start();
            client.resource(Widget.named("ns", "known")).create();
            eventually().until(() -> reconciler.count("ns/known") == 1 && reconciler.count("ns/unknown-in-metadata") == 1);

            eventually().until(() -> logs.events(Level.WARN, UnreadableObjects.class).size() == 3);
            assertThat(logs.events(Level.WARN, UnreadableObjects.class)).extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(line -> assertThat(line).contains("key=ns/unknown-in-spec", "field=spec.futureField",
                            "Unrecognized field \"futureField\""))
                    .anySatisfy(line -> assertThat(line).contains("key=ns/unknown-at-top", "field=futureTopLevel"))
                    .anySatisfy(line -> assertThat(line).contains("key=ns/unknown-in-status",
                            "field=status.futureStatus"));
            assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key)
                    .containsExactlyInAnyOrder("ns/known", "ns/unknown-in-metadata");
        }
    }

    @Test
    void hugeAnnotationsAreReconciledAndNeverLogged() {
        String huge = "h".repeat(200 * 1024);
        try (CapturedLogs logs = CapturedLogs.of("dev.kubeloop", Level.DEBUG)) {
            RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
                widget.setStatus(new Widget.Status());
                widget.getStatus().setMessage("annotation of " + widget.getMetadata().getAnnotations().get("big").length());
                context.updateStatus(widget);
                context.events().normal(widget, "Seen", widget.getMetadata().getAnnotations().get("big"));
                return Result.done();
            });
            manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
            Widget listed = Widget.named("ns", "huge-listed");
            listed.getMetadata().setAnnotations(Map.of("big", huge));
            client.resource(listed).create();
            manager.start();
            long created = System.nanoTime();
            Widget watched = Widget.named("ns", "huge-watched");
            watched.getMetadata().setAnnotations(Map.of("big", huge));
            client.resource(watched).create(); // arrives through the watch: one message of over 200 KB

            eventually().until(() -> manager.controller("widget").orElseThrow().count(ReconcileOutcome.SUCCESS) >= 2);
            long reconciledMillis = (System.nanoTime() - created) / 1_000_000;
            assertThat(stored("huge-listed").getStatus().getMessage()).isEqualTo("annotation of " + huge.length());
            assertThat(stored("huge-watched").getStatus().getMessage()).isEqualTo("annotation of " + huge.length());
            eventually().until(() -> client.v1().events().inNamespace("ns").list().getItems().size() == 2);
            assertThat(client.v1().events().inNamespace("ns").list().getItems())
                    .allSatisfy(event -> assertThat(event.getMessage()).hasSizeLessThanOrEqualTo(1024));
            assertThat(logs.allText()).doesNotContain("h".repeat(64));
            assertThat(manager.informers()).singleElement().satisfies(informer -> assertThat(informer.failed()).isFalse());
            System.out.println("[reliability] scenario=huge-annotations load=2 Widgets with a 200 KiB annotation (one "
                    + "listed, one watched) faults=none result=both reconciled, status written, annotation never "
                    + "logged, event messages capped figures=watchedReconciledMs=" + reconciledMillis
                    + " logLines=" + logs.events().size() + " maxEventMessageChars=1024");
        }
    }

    /** Four objects, each with a field the Widget model does not have, in a different place. */
    private void createUnknownFieldVariants() {
        GenericKubernetesResource inMetadata = raw("unknown-in-metadata", Map.of("spec", Map.of("color", "red")));
        inMetadata.getMetadata().setAdditionalProperty("futureMetadata", "x");
        rawWidgets().resource(inMetadata).create();
        createRaw("unknown-in-spec", Map.of("spec", Map.of("color", "red", "futureField", Map.of("a", 1))));
        createRaw("unknown-at-top", Map.of("spec", Map.of("color", "red"), "futureTopLevel", List.of(1, 2)));
        createRaw("unknown-in-status", Map.of("spec", Map.of("color", "red")));
        // status is a subresource: like a real API server's, the mock may ignore it on create
        rawWidgets().withName("unknown-in-status").editStatus(object -> {
            object.setAdditionalProperty("status", Map.of("message", "old", "futureStatus", true));
            return object;
        });
    }

    private GenericKubernetesResource raw(String name, Map<String, Object> fields) {
        GenericKubernetesResource object = new GenericKubernetesResourceBuilder().withApiVersion("kubeloop.dev/v1")
                .withKind("Widget").withNewMetadata().withNamespace("ns").withName(name).endMetadata().build();
        object.setAdditionalProperties(new HashMap<>(fields));
        return object;
    }

    private void createRaw(String name, Map<String, Object> fields) {
        rawWidgets().resource(raw(name, fields)).create();
    }

    private static GenericKubernetesResource withSpec(GenericKubernetesResource object, Map<String, Object> spec) {
        object.setAdditionalProperty("spec", spec);
        return object;
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> rawWidgets() {
        return client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(Widget.class))
                .inNamespace("ns");
    }

    /** Waits until the informer's watch is open again after a re-list. */
    private void awaitWatching() {
        eventually().until(() -> manager.informers().get(0).watching());
    }

    /** The resourceVersion of the Widget the controller's cache holds, if it holds it. */
    private Optional<String> cachedVersion(String name) {
        return manager.controller("widget").orElseThrow().cachedResourceVersion(new ObjectKey("ns", name));
    }

    private Widget stored(String name) {
        return client.resources(Widget.class).inNamespace("ns").withName(name).get();
    }

    /** GETs of the Widget list (the informer's lists), not its watches. */
    private int listRequests() {
        return cluster.requests((RecordedRequest r) -> r.getMethod().equals("GET") && r.getPath().startsWith(WIDGETS_PATH)
                && !r.getPath().contains("watch=true")).size();
    }

    private List<Event> warningsAbout(String name) {
        return client.v1().events().inNamespace("ns").list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(name) && e.getType().equals("Warning")
                        && e.getReason().equals(UnreadableObjects.REASON))
                .toList();
    }

    private Event awaitWarning(String name) {
        eventually().until(() -> !warningsAbout(name).isEmpty());
        assertThat(warningsAbout(name)).hasSize(1);
        return warningsAbout(name).get(0);
    }
}
