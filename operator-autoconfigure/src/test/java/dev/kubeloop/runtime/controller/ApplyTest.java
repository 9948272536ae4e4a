package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * {@code context.apply}: owner reference and label, namespaces, no-op detection, the events that
 * say what an apply did, and pruning; against the mock API server, whose server-side apply is an
 * approximation (the e2e suite checks field ownership on a real one).
 */
class ApplyTest extends MockClusterTestSupport {

    private static final String APPLIED_BY = "kubeloop.dev/applied-by";

    @Test
    void anOwnedObjectGetsTheControllerReferenceTheLabelAndThePrimarysNamespace() {
        Controller<Widget> controller = start(ownsConfigMaps(), (widget, context) -> {
            context.apply(configMap(widget.getMetadata().getName() + "-config", widget.getSpec().getColor()));
            return Result.done();
        });

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> configMap("a-config") != null);
        ConfigMap applied = configMap("a-config");
        assertThat(applied.getMetadata().getNamespace()).isEqualTo("ns");
        assertThat(applied.getMetadata().getLabels()).containsEntry(APPLIED_BY, "widget");
        assertThat(applied.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("Widget");
            assertThat(owner.getName()).isEqualTo("a");
            assertThat(owner.getUid()).isEqualTo(widget("a").getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
            assertThat(owner.getBlockOwnerDeletion()).isTrue();
        });
        assertThat(applied.getData()).containsEntry("color", "blue");
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY, 1L);
    }

    @Test
    void aReconcileThatWantsWhatItAppliedBeforeSendsNothing() {
        Controller<Widget> controller = start(ownsConfigMaps(), (widget, context) -> {
            context.apply(configMap(widget.getMetadata().getName() + "-config", widget.getSpec().getColor()));
            return Result.done();
        });
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap("a-config") != null && controller.queueStats().idle());
        long appliesBefore = applyRequests();

        long skippedBefore = controller.status().writes().skipped().get(WriteOperation.APPLY);

        for (int i = 1; i <= 5; i++) {
            controller.enqueue(ObjectKey.of("ns", "a"), 0);
            long expected = skippedBefore + i;
            eventually().until(() -> controller.status().writes().skipped().get(WriteOperation.APPLY) == expected);
        }

        eventually().until(() -> controller.queueStats().idle());
        assertThat(applyRequests()).as("apply PATCHes sent by the steady-state reconciles").isEqualTo(appliesBefore);
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY, 1L);
    }

    /** A Deployment's status moves with its pods: the applied spec is unchanged, and nothing is sent. */
    @Test
    void aStatusChangeOfAnAppliedObjectSendsNothing() {
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(Deployment.class)).build(), new RecordingReconciler().behaving((widget, context) -> {
                    context.apply(new DeploymentBuilder().withNewMetadata().withName("web").endMetadata()
                            .withNewSpec().withReplicas(2).endSpec().build());
                    return Result.done();
                }));
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> client.apps().deployments().inNamespace("ns").withName("web").get() != null
                && controller.queueStats().idle());
        long skipped = controller.status().writes().skipped().get(WriteOperation.APPLY);

        client.apps().deployments().inNamespace("ns").withName("web").editStatus(deployment -> {
            deployment.setStatus(new DeploymentStatusBuilder().withReadyReplicas(1).build());
            return deployment;
        });

        // the mock may deliver the status change as more than one update: each reconcile skips
        eventually().until(() -> controller.status().writes().skipped().get(WriteOperation.APPLY) > skipped
                && controller.queueStats().idle());
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY, 1L);
    }

    /** Each Widget owns its entry of one shared ConfigMap: the others' writes do not make its apply due again. */
    @Test
    void anEntryOfASharedObjectIsNotAppliedAgainWhenOthersChangedTheirs() {
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                new RecordingReconciler().behaving((widget, context) -> {
                    String name = widget.getMetadata().getName();
                    context.apply(configMap("index", null).edit().addToData(name, widget.getSpec().getColor()).build(),
                            ApplyOptions.defaults().fieldManager("index/" + name).notOwned());
                    return Result.done();
                }));
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap("index") != null && controller.queueStats().idle());
        client.resource(Widget.named("ns", "b")).create();
        eventually().until(() -> configMap("index").getData().containsKey("b") && controller.queueStats().idle());
        long skipped = controller.status().writes().skipped().get(WriteOperation.APPLY);

        controller.enqueue(ObjectKey.of("ns", "a"), 0);

        eventually().until(() -> controller.status().writes().skipped().get(WriteOperation.APPLY) == skipped + 1);
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY, 2L);
        assertThat(configMap("index").getData()).containsOnlyKeys("a", "b");
    }

    @Test
    void eventsSayWhetherAnApplyCreatedUpdatedOrRepaired() {
        start(ownsConfigMaps(), (widget, context) -> {
            context.apply(configMap(widget.getMetadata().getName() + "-config", widget.getSpec().getColor()));
            return Result.done();
        });
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> reasons().contains("Created"));

        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setColor("green");
            return widget;
        });
        eventually().until(() -> reasons().contains("Updated"));
        assertThat(reasons()).doesNotContain("Repaired");

        client.configMaps().inNamespace("ns").withName("a-config").edit(cm -> {
            cm.getData().put("color", "red");
            return cm;
        });
        eventually().until(() -> reasons().contains("Repaired"));
        eventually().until(() -> "green".equals(configMap("a-config").getData().get("color")));
        assertThat(events("Created")).singleElement().satisfies(e -> assertThat(e.getMessage())
                .isEqualTo("Created ConfigMap a-config"));
        assertThat(events("Updated")).singleElement().satisfies(e -> assertThat(e.getMessage())
                .startsWith("Updated ConfigMap a-config"));
        assertThat(events("Repaired")).singleElement().satisfies(e -> assertThat(e.getMessage())
                .isEqualTo("ConfigMap a-config had been changed by someone else and was set back"));
    }

    @Test
    void anOwnedObjectInAnotherNamespaceFailsTerminallyAndNamesTheWayOut() {
        Controller<Widget> controller = start(ownsConfigMaps(), (widget, context) -> {
            ConfigMap elsewhere = configMap("a-config", "blue");
            elsewhere.getMetadata().setNamespace("other");
            context.apply(elsewhere);
            return Result.done();
        });

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> controller.count(ReconcileOutcome.TERMINAL_ERROR) == 1);
        assertThat(controller.status().recentErrors()).singleElement().satisfies(error -> assertThat(error.message())
                .contains("cannot own ConfigMap other/a-config", "owner references do not cross namespaces",
                        "ApplyOptions.defaults().notOwned()"));
        assertThat(client.configMaps().inNamespace("other").withName("a-config").get()).isNull();
    }

    @Test
    void anObjectAppliedAsNotOwnedGetsNeitherReferenceNorLabelAndIsNeverPruned() {
        AtomicReference<Boolean> wanted = new AtomicReference<>(true);
        Controller<Widget> controller = start(ownsConfigMaps(), (widget, context) -> {
            ConfigMap shared = configMap("shared", "blue");
            shared.getMetadata().setNamespace("other");
            if (wanted.get()) {
                context.apply(shared, ApplyOptions.defaults().notOwned().fieldManager("widget/" + widget.getMetadata()
                        .getName()));
            }
            context.apply(configMap("a-config", widget.getSpec().getColor()));
            return Result.done();
        });
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> client.configMaps().inNamespace("other").withName("shared").get() != null);
        ConfigMap shared = client.configMaps().inNamespace("other").withName("shared").get();
        assertThat(shared.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(shared.getMetadata().getLabels()).doesNotContainKey(APPLIED_BY);

        wanted.set(false);
        controller.enqueue(ObjectKey.of("ns", "a"), 0);

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) >= 2 && controller.queueStats().idle());
        assertThat(client.configMaps().inNamespace("other").withName("shared").get()).isNotNull();
    }

    @Test
    void ownedObjectsAReconcileNoLongerAppliesArePruned() {
        Controller<Widget> controller = start(ownsConfigMaps(), ApplyTest::oneConfigMapPerSize);
        Widget three = Widget.named("ns", "a");
        three.getSpec().setSize(3);
        client.resource(three).create();
        eventually().until(() -> configMap("a-0") != null && configMap("a-1") != null && configMap("a-2") != null);
        // owned by the Widget, but made by someone else: not the reconciler's to prune
        client.resource(new ConfigMapBuilder().withNewMetadata().withName("a-by-hand").withNamespace("ns")
                .withOwnerReferences(ownerOf(widget("a"))).endMetadata().build()).create();

        resize("a", 1);

        // the server answers the delete before the controller counts it
        eventually().until(() -> configMap("a-1") == null && configMap("a-2") == null
                && controller.status().writes().sent().get(WriteOperation.PRUNE) >= 2);
        assertThat(configMap("a-0")).isNotNull();
        assertThat(configMap("a-by-hand")).isNotNull();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 2L);
        eventually().until(() -> events("Pruned").size() == 2);
        assertThat(events("Pruned")).extracting(Event::getMessage).containsExactlyInAnyOrder(
                "ConfigMap a-1 is no longer wanted and was deleted", "ConfigMap a-2 is no longer wanted and was deleted");
    }

    @Test
    void aReconcileThatAppliesNothingOwnedPrunesNothing() {
        Controller<Widget> controller = start(ownsConfigMaps(), ApplyTest::oneConfigMapPerSize);
        Widget two = Widget.named("ns", "a");
        two.getSpec().setSize(2);
        client.resource(two).create();
        eventually().until(() -> configMap("a-0") != null && configMap("a-1") != null);

        // e.g. a reconcile that returns early because the spec is invalid
        resize("a", 0);

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) >= 2 && controller.queueStats().idle()
                && Long.valueOf(2).equals(latestGeneration("a")));
        assertThat(configMap("a-0")).isNotNull();
        assertThat(configMap("a-1")).isNotNull();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 0L);
    }

    @Test
    void aFailedReconcilePrunesNothing() {
        Controller<Widget> controller = start(ownsConfigMaps(), (widget, context) -> {
            context.apply(configMap(widget.getMetadata().getName() + "-0", widget.getSpec().getColor()));
            if (widget.getSpec().getSize() == 2) {
                context.apply(configMap(widget.getMetadata().getName() + "-1", widget.getSpec().getColor()));
            } else {
                throw new IllegalStateException("failed halfway");
            }
            return Result.done();
        });
        Widget two = Widget.named("ns", "a");
        two.getSpec().setSize(2);
        client.resource(two).create();
        eventually().until(() -> configMap("a-0") != null && configMap("a-1") != null);

        resize("a", 1);

        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= 2);
        assertThat(configMap("a-1")).isNotNull();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 0L);
    }

    private Controller<Widget> start(ControllerConfig<Widget> config,
            BiFunction<Widget, ReconcileContext<Widget>, Result> behaviour) {
        Controller<Widget> controller = manager.register(config, new RecordingReconciler().behaving(behaviour::apply));
        manager.start();
        return controller;
    }

    /** Applies spec.size ConfigMaps, {@code <name>-0} and on. */
    private static Result oneConfigMapPerSize(Widget widget, ReconcileContext<Widget> context) {
        for (int i = 0; i < widget.getSpec().getSize(); i++) {
            context.apply(configMap(widget.getMetadata().getName() + "-" + i, widget.getSpec().getColor()));
        }
        return Result.done();
    }

    private static ControllerConfig<Widget> ownsConfigMaps() {
        return ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class)).build();
    }

    private void resize(String name, int size) {
        client.resources(Widget.class).inNamespace("ns").withName(name).edit(widget -> {
            widget.getSpec().setSize(size);
            return widget;
        });
    }

    private Long latestGeneration(String name) {
        return widget(name).getMetadata().getGeneration();
    }

    private static ConfigMap configMap(String name, String color) {
        ConfigMapBuilder configMap = new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata();
        return (color == null ? configMap : configMap.addToData("color", color)).build();
    }

    private static OwnerReference ownerOf(Widget widget) {
        return new OwnerReferenceBuilder().withApiVersion(widget.getApiVersion())
                .withKind(widget.getKind()).withName(widget.getMetadata().getName())
                .withUid(widget.getMetadata().getUid()).withController(true).build();
    }

    private ConfigMap configMap(String name) {
        return client.configMaps().inNamespace("ns").withName(name).get();
    }

    private Widget widget(String name) {
        return client.resources(Widget.class).inNamespace("ns").withName(name).get();
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
}
