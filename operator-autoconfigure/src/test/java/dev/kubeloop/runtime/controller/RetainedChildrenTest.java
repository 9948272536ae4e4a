package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Children that accumulate (issue 27 item 1): one Job per scheduled run, applied with
 * {@code ApplyOptions.retain()}, keeps everything an owned apply gives and is never pruned, while
 * the reconcile's other children are pruned as before; and the way out of the pruned set for
 * objects applied before without it.
 */
class RetainedChildrenTest extends MockClusterTestSupport {

    private static final String APPLIED_BY = "kubeloop.dev/applied-by";
    private static final String RETAINED_BY = "kubeloop.dev/retained-by";

    @Test
    void aRunAppliedWithRetainOutlivesTheNextRunWhileAnOrdinaryChildIsStillPruned() {
        // spec.size is the run: each reconcile applies the run's Job and the run's settings
        Controller<Widget> controller = start((widget, context) -> {
            int run = widget.getSpec().getSize();
            context.apply(run("a-run-" + run), ApplyOptions.defaults().retain());
            context.apply(settings("a-settings-" + run));
            return Result.done();
        });
        Widget first = Widget.named("ns", "a");
        first.getSpec().setSize(1);
        client.resource(first).create();
        eventually().until(() -> job("ns", "a-run-1") != null && configMap("a-settings-1") != null);

        resize(2);

        eventually().until(() -> job("ns", "a-run-2") != null && configMap("a-settings-1") == null);
        Job previous = job("ns", "a-run-1");
        assertThat(previous).as("the previous run, never pruned").isNotNull();
        assertThat(previous.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getUid()).isEqualTo(widget().getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
        assertThat(previous.getMetadata().getLabels()).containsEntry(RETAINED_BY, "widget")
                .doesNotContainKey(APPLIED_BY);
        assertThat(configMap("a-settings-2").getMetadata().getLabels()).containsEntry(APPLIED_BY, "widget");
        eventually().until(() -> events("Created").size() == 4);
        assertThat(events("Created")).extracting(Event::getMessage).contains("Created Job a-run-1",
                "Created Job a-run-2");
        assertThat(events("Pruned")).extracting(Event::getMessage)
                .containsExactly("ConfigMap a-settings-1 is no longer wanted and was deleted");
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 1L);
    }

    @Test
    void aRetainedRunAppliedAgainUnchangedSendsNothing() {
        Controller<Widget> controller = start((widget, context) -> {
            context.apply(run("a-run-1"), ApplyOptions.defaults().retain());
            return Result.done();
        });
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> job("ns", "a-run-1") != null);

        resize(7);

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) >= 2 && controller.queueStats().idle());
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY, 1L);
        assertThat(controller.status().writes().skipped()).containsEntry(WriteOperation.APPLY, 1L);
    }

    @Test
    void aRunAnEarlierVersionAppliedLeavesThePrunedSetWhenAppliedWithRetain() {
        AtomicReference<ApplyOptions> options = new AtomicReference<>(ApplyOptions.defaults());
        Controller<Widget> controller = start((widget, context) -> {
            context.apply(run("a-run-" + widget.getSpec().getSize()), options.get());
            return Result.done();
        });
        Widget first = Widget.named("ns", "a");
        first.getSpec().setSize(1);
        client.resource(first).create();
        eventually().until(() -> job("ns", "a-run-1") != null);
        assertThat(job("ns", "a-run-1").getMetadata().getLabels()).containsEntry(APPLIED_BY, "widget");

        // the upgrade: the same run applied again, now with retain(), then the next run
        options.set(ApplyOptions.defaults().retain());
        resize(1); // a new generation of the same run: applies run 1 again
        eventually().until(() -> job("ns", "a-run-1").getMetadata().getLabels().containsKey(RETAINED_BY));
        assertThat(job("ns", "a-run-1").getMetadata().getLabels()).doesNotContainKey(APPLIED_BY);
        long before = controller.count(ReconcileOutcome.SUCCESS);
        resize(2);

        eventually().until(() -> job("ns", "a-run-2") != null && controller.count(ReconcileOutcome.SUCCESS) > before
                && controller.queueStats().idle());
        assertThat(job("ns", "a-run-1")).as("the run the earlier version applied").isNotNull();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 0L);
    }

    @Test
    void aChildLabelledRetainedByHandIsNotPrunedEvenWithTheAppliedByLabel() {
        Controller<Widget> controller = start(RetainedChildrenTest::oneSettingsPerRun);
        Widget first = Widget.named("ns", "a");
        first.getSpec().setSize(1);
        client.resource(first).create();
        eventually().until(() -> configMap("a-settings-1") != null);
        // the migration for an object an earlier version applied and no reconcile applies again
        client.configMaps().inNamespace("ns").withName("a-settings-1").edit(configMap -> {
            configMap.getMetadata().getLabels().put(RETAINED_BY, "widget");
            return configMap;
        });

        long before = controller.count(ReconcileOutcome.SUCCESS);
        resize(2);

        eventually().until(() -> configMap("a-settings-2") != null
                && controller.count(ReconcileOutcome.SUCCESS) > before && controller.queueStats().idle());
        assertThat(configMap("a-settings-1")).isNotNull();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 0L);
    }

    /**
     * The cache is behind the API server: someone labels the earlier child to keep it while the
     * reconcile that no longer applies it runs, so its prune judges the unlabelled version. The
     * delete carries that version as a precondition; the server refuses it (409) and nothing is
     * deleted; the label's event queues the Widget again, and that reconcile leaves the child be.
     */
    @Test
    void aChildLabelledRetainedWhileTheReconcileRunsIsNotPrunedFromTheStaleCache() {
        Controller<Widget> controller = secondRunWhileSomeoneChangesTheFirstSettings(settings -> settings
                .editMetadata().addToLabels(RETAINED_BY, "widget").endMetadata());

        assertThat(configMap("a-settings-1")).as("labelled to keep while the reconcile ran").isNotNull();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 0L);
        assertThat(events("Pruned")).isEmpty();
    }

    /** The same race with a takeover: someone orphans the earlier child (as {@code kubectl} would) while the reconcile runs. */
    @Test
    void aChildOrphanedWhileTheReconcileRunsIsNotPrunedFromTheStaleCache() {
        Controller<Widget> controller = secondRunWhileSomeoneChangesTheFirstSettings(settings -> settings
                .editMetadata().withOwnerReferences(List.of()).removeFromLabels(APPLIED_BY)
                .addToLabels("team", "theirs").endMetadata());

        ConfigMap theirs = configMap("a-settings-1");
        assertThat(theirs).as("taken over while the reconcile ran").isNotNull();
        assertThat(theirs.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(theirs.getMetadata().getLabels()).containsEntry("team", "theirs").doesNotContainKey(APPLIED_BY);
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 0L);
        assertThat(events("Pruned")).isEmpty();
    }

    /**
     * The same race with a change that leaves the child unwanted: someone else writes to it (an
     * annotation here; a Job's controller writes its status so) while the reconcile that no longer
     * applies it runs. The first prune is refused (409) and deletes nothing; the refusal does not
     * end it there: the change's event queues the Widget again, and that reconcile prunes the
     * child as it now is.
     */
    @Test
    void aChildSomeoneElseWroteToWhileTheReconcileRanIsPrunedByTheNextReconcile() {
        Controller<Widget> controller = secondRunWhileSomeoneChangesTheFirstSettings(settings -> settings
                .editMetadata().addToAnnotations("someone-else/touched", "yes").endMetadata());

        eventually().until(() -> configMap("a-settings-1") == null);
        assertThat(cluster.requests(request -> "DELETE".equals(request.getMethod())
                && request.getPath().contains("/configmaps/a-settings-1")))
                .as("the delete refused for the version the cache had, then the one that deleted it").hasSize(2);
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 1L);
        assertThat(events("Pruned")).extracting(Event::getMessage)
                .containsExactly("ConfigMap a-settings-1 is no longer wanted and was deleted");
        assertThat(controller.count(ReconcileOutcome.ERROR) + controller.count(ReconcileOutcome.CONFLICT))
                .as("a refused prune fails no reconcile").isZero();
    }

    /**
     * Runs the Widget's settings from run 1 to run 2, while someone else changes run 1's settings
     * (through the plain client) in the reconcile of run 2, just before it returns and prunes: that
     * prune judges a cache that has not seen the change (held back for certain: the watches are
     * cut first). Returns once the reconciles that follow are done.
     */
    private Controller<Widget> secondRunWhileSomeoneChangesTheFirstSettings(UnaryOperator<ConfigMapBuilder> change) {
        AtomicBoolean changed = new AtomicBoolean();
        Controller<Widget> controller = start((widget, context) -> {
            Result result = oneSettingsPerRun(widget, context);
            if (widget.getSpec().getSize() == 2 && changed.compareAndSet(false, true)) {
                // the watches cut first: the change reaches the cache only when the informer watches
                // again, a second later (fabric8's reconnect interval), long after this reconcile's prune
                cluster.cutWatchesOnceOpen(".*/configmaps", false);
                client.configMaps().inNamespace("ns").withName("a-settings-1")
                        .edit(configMap -> change.apply(new ConfigMapBuilder(configMap)).build());
            }
            return result;
        });
        Widget first = Widget.named("ns", "a");
        first.getSpec().setSize(1);
        client.resource(first).create();
        eventually().until(() -> configMap("a-settings-1") != null);
        long before = controller.count(ReconcileOutcome.SUCCESS);

        resize(2);

        eventually().until(() -> changed.get() && configMap("a-settings-2") != null
                && controller.count(ReconcileOutcome.SUCCESS) > before + 1 && controller.queueStats().idle());
        return controller;
    }

    /** A CronJob's successfulJobsHistoryLimit, written with context.delete: the oldest runs go, the lists agree at once. */
    @Test
    void aHistoryLimitDeletesTheOldestRunsThroughTheContextAndTheReconcilesListsLeaveThemOut() {
        List<List<String>> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Controller<Widget> controller = start((widget, context) -> {
            context.apply(run("a-run-" + widget.getSpec().getSize()), ApplyOptions.defaults().retain());
            List<Job> runs = new java.util.ArrayList<>(context.owned(Job.class));
            runs.sort(java.util.Comparator.comparing(job -> Integer.parseInt(job.getMetadata().getName()
                    .substring("a-run-".length()))));
            for (Job old : runs.subList(0, Math.max(0, runs.size() - 2))) {
                context.delete(old);
            }
            seen.add(context.owned(Job.class).stream().map(job -> job.getMetadata().getName()).sorted().toList());
            return Result.done();
        });
        Widget first = Widget.named("ns", "a");
        first.getSpec().setSize(1);
        client.resource(first).create();
        eventually().until(() -> job("ns", "a-run-1") != null);

        for (int run = 2; run <= 4; run++) {
            int expected = run;
            resize(run);
            eventually().until(() -> job("ns", "a-run-" + expected) != null && controller.queueStats().idle()
                    && !seen.isEmpty() && seen.get(seen.size() - 1).contains("a-run-" + expected));
        }

        assertThat(job("ns", "a-run-1")).isNull();
        assertThat(job("ns", "a-run-2")).isNull();
        assertThat(job("ns", "a-run-3")).isNotNull();
        assertThat(job("ns", "a-run-4")).isNotNull();
        assertThat(seen).as("what each reconcile listed right after its deletes").allSatisfy(names ->
                assertThat(names.size()).isLessThanOrEqualTo(2));
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.DELETE, 2L)
                .containsEntry(WriteOperation.PRUNE, 0L);
        eventually().until(() -> events("Deleted").size() == 2);
        assertThat(events("Deleted")).extracting(Event::getMessage).containsExactlyInAnyOrder(
                "Job a-run-1 was deleted", "Job a-run-2 was deleted");
    }

    private static Result oneSettingsPerRun(Widget widget, ReconcileContext<Widget> context) {
        context.apply(settings("a-settings-" + widget.getSpec().getSize()));
        return Result.done();
    }

    private Controller<Widget> start(BiFunction<Widget, ReconcileContext<Widget>, Result> behaviour) {
        ControllerConfig<Widget> config = ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class, Job.class)).build();
        Controller<Widget> controller = manager.register(config, new RecordingReconciler().behaving(behaviour::apply));
        manager.start();
        return controller;
    }

    private void resize(int size) {
        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setSize(size);
            widget.getSpec().setColor(widget.getSpec().getColor() + "!"); // a new generation even for the same size
            return widget;
        });
    }

    private static Job run(String name) {
        return new JobBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withNewTemplate()
                .withNewSpec().addNewContainer().withName("run").withImage("busybox").endContainer()
                .withRestartPolicy("Never").endSpec().endTemplate().endSpec().build();
    }

    private static ConfigMap settings(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("k", "v").build();
    }

    private Job job(String namespace, String name) {
        return client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    }

    private ConfigMap configMap(String name) {
        return client.configMaps().inNamespace("ns").withName(name).get();
    }

    private Widget widget() {
        return client.resources(Widget.class).inNamespace("ns").withName("a").get();
    }

    private List<Event> events(String reason) {
        return cluster.events("ns", reason);
    }
}
