package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ForeignObjectException;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An owned apply never takes over an object this controller does not control unless the
 * reconciler asks ({@link Adoption}'s table): one test per row, on the mock API server. A refusal
 * sends nothing, reaches the reconciler as an {@link ApiRefusal} (for its condition), is a
 * Warning event naming the object and its controller once per generation, and is retried with
 * backoff until the object is out of the way.
 */
class AdoptionTest extends MockClusterTestSupport {

    private static final String APPLIED_BY = "kubeloop.dev/applied-by";
    private static final String DATABASE_UID = "3f0c9a1e-0000-4000-8000-00000000d8b1";

    private final List<ApiRefusal> refusals = new CopyOnWriteArrayList<>();
    private final AtomicReference<ApplyOptions> options = new AtomicReference<>(ApplyOptions.defaults());
    private CapturedLogs logs;
    private Controller<Widget> controller;

    @BeforeEach
    void startController() {
        logs = CapturedLogs.of(Controller.class, Level.INFO);
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .rateLimiter(() -> new ExponentialBackoffRateLimiter<>(Duration.ofMillis(1), Duration.ofMillis(50)))
                .build();
        controller = manager.register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class))
                .build(), new RecordingReconciler().behaving((widget, context) -> {
                    try {
                        context.apply(new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata()
                                .addToData("color", widget.getSpec().getColor()).build(), options.get());
                    } catch (KubernetesClientException e) {
                        ApiRefusal.of(e).ifPresent(refusals::add);
                        throw e;
                    }
                    return Result.done();
                }));
    }

    @AfterEach
    void releaseLogs() {
        logs.close();
    }

    @Test
    void anAbsentObjectIsCreated() {
        Widget widget = startWith(null);

        eventually().until(() -> "blue".equals(data("a").get("color")));
        assertThat(configMap("a").getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid)
                .containsExactly(widget.getMetadata().getUid());
        eventually().until(() -> reasons().contains("Created"));
    }

    @Test
    void anObjectThePrimaryControlsIsApplied() {
        manager.start();
        Widget widget = client.resource(Widget.named("ns", "a")).create();
        client.resource(userConfigMap(ownerReference("Widget", "a", widget.getMetadata().getUid()))).create();

        eventually().until(() -> "blue".equals(data("a").get("color")));
        assertThat(refusals).isEmpty();
        assertThat(reasons()).doesNotContain("Adopted", ForeignObjectException.EVENT_REASON);
    }

    @Test
    void anObjectAnotherOwnerControlsIsRefusedWithAWarningNamingItsController() {
        startWith(userConfigMap(ownerReference("Database", "payments-db", DATABASE_UID)));

        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= 5);
        assertUntouched();
        assertThat(refusals).allSatisfy(refusal -> {
            assertThat(refusal.foreign()).isTrue();
            assertThat(refusal.invalid()).as("the object, not a permission, is in the way").isTrue();
            assertThat(refusal.describe()).contains("ConfigMap a", "controlled by Database payments-db");
        });
        assertThat(controller.count(ReconcileOutcome.CONFLICT)).as("not retried as a stale cache").isZero();
        eventually().until(() -> warnings().size() == 1);
        assertThat(warnings()).singleElement().satisfies(event -> {
            assertThat(event.getInvolvedObject().getName()).isEqualTo("a");
            assertThat(event.getInvolvedObject().getKind()).isEqualTo("Widget");
            assertThat(event.getMessage()).contains("ConfigMap a exists and is controlled by Database payments-db",
                    "not by Widget a");
        });
        assertThat(logs.events(Level.WARN, "key=ns/a")).as("one line per generation").singleElement()
                .satisfies(line -> assertThat(line.getThrowableProxy()).isNull());
    }

    @Test
    void adoptDoesNotTakeAnObjectAnotherOwnerControls() {
        options.set(ApplyOptions.defaults().adopt());

        startWith(userConfigMap(ownerReference("Database", "payments-db", DATABASE_UID)));

        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= 3);
        assertUntouched();
        assertThat(refusals).allSatisfy(refusal -> assertThat(refusal.describe())
                .contains("one controller per object"));
    }

    @Test
    void anObjectNoOneControlsThatThisControllerNeverAppliedIsRefused() {
        startWith(userConfigMap(null));

        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= 5 && warnings().size() == 1);
        assertUntouched();
        assertThat(warnings()).singleElement().satisfies(event -> assertThat(event.getMessage()).contains(
                "ConfigMap a exists and was not applied by controller widget", "ApplyOptions.adopt()"));
    }

    @Test
    void aRefusalIsRetriedUntilTheObjectIsOutOfTheWayAndReportedAgainForANewGeneration() {
        startWith(userConfigMap(null));
        eventually().until(() -> warnings().size() == 1);

        recolor("green");
        eventually().until(() -> warnings().stream().mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum() == 2);
        client.configMaps().inNamespace("ns").withName("a").delete();

        eventually().until(() -> "green".equals(data("a").get("color")));
        eventually().until(() -> logs.events(Level.INFO, "recovered").size() == 1);
        assertThat(logs.events(Level.WARN, "key=ns/a")).hasSize(2);
    }

    @Test
    void adoptTakesAnObjectNoOneControlsWithAnAdoptedEvent() {
        options.set(ApplyOptions.defaults().adopt());

        Widget widget = startWith(userConfigMap(null));

        assertAdopted(widget, "Adopted ConfigMap a, which no one controlled, as the reconciler asked "
                + "(ApplyOptions.adopt())");
        assertThat(reasons()).doesNotContain("Created", "Updated");
        assertThat(logs.events(Level.INFO, "adopted")).singleElement().satisfies(line -> assertThat(
                line.getFormattedMessage()).contains("controller=widget", "key=ns/a", "Adopted ConfigMap a"));
    }

    /** E.g. after {@code kubectl delete --cascade=orphan} and a new primary of the same name. */
    @Test
    void anObjectThisControllerAppliedBeforeIsTakenBackWhenItsOwnerReferenceWasRemoved() {
        ConfigMap orphan = userConfigMap(null);
        orphan.getMetadata().setLabels(Map.of(APPLIED_BY, "widget"));

        Widget widget = startWith(orphan);

        assertAdopted(widget, "this controller applied it before");
    }

    /** A child applied with {@code retain()} carries the other label, which is as much this controller's mark. */
    @Test
    void aRetainedObjectThisControllerAppliedBeforeIsTakenBackWhenItsOwnerReferenceWasRemoved() {
        options.set(ApplyOptions.defaults().retain());
        ConfigMap orphan = userConfigMap(null);
        orphan.getMetadata().setLabels(Map.of("kubeloop.dev/retained-by", "widget"));

        Widget widget = startWith(orphan);

        assertAdopted(widget, "this controller applied it before");
    }

    /** An object applied before its kind was owned, by an earlier version of the reconciler: no label, its apply. */
    @Test
    void anObjectThisControllersFieldManagerAppliedIsTakenBack() {
        ConfigMap applied = userConfigMap(null);
        applied.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("widget")
                .withOperation("Apply").withApiVersion("v1").withFieldsType("FieldsV1").build()));

        Widget widget = startWith(applied);

        assertAdopted(widget, "this controller applied it before");
    }

    @Test
    void anObjectOfAFormerPrimaryOfTheSameNameIsTakenBack() {
        ConfigMap former = userConfigMap(ownerReference("Widget", "a", "00000000-0000-4000-8000-00000000f0e1"));
        former.getMetadata().setLabels(Map.of(APPLIED_BY, "widget"));

        Widget widget = startWith(former);

        assertAdopted(widget, "controlled by a former Widget a (uid 00000000-0000-4000-8000-00000000f0e1), which no "
                + "longer exists");
    }

    @Test
    void aFormerPrimarysObjectWithoutThisControllersMarksIsRefused() {
        startWith(userConfigMap(ownerReference("Widget", "a", "00000000-0000-4000-8000-00000000f0e1")));

        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= 3 && warnings().size() == 1);
        assertUntouched();
    }

    /** Creates {@code existing} (unless null), starts the controller, then creates Widget ns/a. */
    private Widget startWith(ConfigMap existing) {
        if (existing != null) {
            client.resource(existing).create();
        }
        manager.start();
        return client.resource(Widget.named("ns", "a")).create();
    }

    /** The ConfigMap applied, the widget's alone, and one Adopted event saying why. */
    private void assertAdopted(Widget widget, String why) {
        eventually().until(() -> "blue".equals(data("a").get("color")));
        assertThat(configMap("a").getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid)
                .containsExactly(widget.getMetadata().getUid());
        eventually().until(() -> reasons().contains("Adopted"));
        assertThat(events("Adopted")).singleElement().satisfies(event -> assertThat(event.getMessage()).contains(why));
    }

    /** The user's ConfigMap as they made it, and no apply sent. */
    private void assertUntouched() {
        ConfigMap stored = configMap("a");
        assertThat(stored.getData()).as("the owner's data").containsExactly(Map.entry("index.html", "theirs"));
        assertThat(stored.getMetadata().getLabels()).doesNotContainKey(APPLIED_BY);
        assertThat(stored.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid)
                .doesNotContain(widgetUid());
        assertThat(applyRequests()).as("apply PATCHes sent").isZero();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY, 0L);
    }

    private String widgetUid() {
        return client.resources(Widget.class).inNamespace("ns").withName("a").get().getMetadata().getUid();
    }

    private static ConfigMap userConfigMap(OwnerReference controllerReference) {
        ConfigMapBuilder builder = new ConfigMapBuilder().withNewMetadata().withName("a").withNamespace("ns")
                .endMetadata().addToData("index.html", "theirs");
        if (controllerReference != null) {
            builder.editMetadata().withOwnerReferences(controllerReference).endMetadata();
        }
        return builder.build();
    }

    private static OwnerReference ownerReference(String kind, String name, String uid) {
        return new OwnerReferenceBuilder().withApiVersion("kubeloop.dev/v1").withKind(kind).withName(name)
                .withUid(uid).withController(true).build();
    }

    private void recolor(String color) {
        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setColor(color);
            return widget;
        });
    }

    private ConfigMap configMap(String name) {
        return client.configMaps().inNamespace("ns").withName(name).get();
    }

    private Map<String, String> data(String name) {
        ConfigMap configMap = configMap(name);
        return configMap == null || configMap.getData() == null ? Map.of() : configMap.getData();
    }

    private long applyRequests() {
        return cluster.applies("/api/v1/namespaces/ns/configmaps/").size();
    }

    private List<String> reasons() {
        return cluster.eventReasons("ns");
    }

    private List<Event> events(String reason) {
        return cluster.events("ns", reason);
    }

    private List<Event> warnings() {
        return events(ForeignObjectException.EVENT_REASON).stream().filter(e -> "Warning".equals(e.getType())).toList();
    }
}
