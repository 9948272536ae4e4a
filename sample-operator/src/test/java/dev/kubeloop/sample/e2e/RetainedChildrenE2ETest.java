package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.e2e.reconcilers.OneJobPerRun;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/**
 * Issue 27 item 1 on a real API server: an operator that applies one Job per run. A run applied
 * first without {@code retain()} (an earlier version of the operator) carries the pruned set's
 * label; applied again with it, server-side apply removes that label (the manager no longer
 * applies it), and the next run does not prune it: it stays, with its owner reference, while the
 * run's ordinary child (a Secret per run) is pruned.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
@Import(OneJobPerRun.Config.class)
class RetainedChildrenE2ETest {

    private static final String SELECTED = OneJobPerRun.SELECTED;
    private static final String APPLIED_BY = "kubeloop.dev/applied-by";
    private static final String RETAINED_BY = "kubeloop.dev/retained-by";

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aRunAnEarlierVersionAppliedIsRetainedOnceAppliedWithRetainAndOutlivesTheNextRun() {
        ConfigMap schedule = client.resource(schedule(1, false)).create();
        kit.await("run 1, in the pruned set", () -> job("nightly-run-1") != null
                && "e2e-runs".equals(job("nightly-run-1").getMetadata().getLabels().get(APPLIED_BY)));

        // the upgrade: the same run applied again, now with retain()
        client.resource(schedule(1, true)).update();
        kit.await("run 1, retained", () -> job("nightly-run-1").getMetadata().getLabels().containsKey(RETAINED_BY));
        Job retained = job("nightly-run-1");
        assertThat(retained.getMetadata().getLabels()).as("removed by server-side apply").doesNotContainKey(APPLIED_BY);
        assertThat(retained.getMetadata().getManagedFields()).filteredOn(e -> "e2e-runs".equals(e.getManager()))
                .extracting(ManagedFieldsEntry::getOperation).containsOnly("Apply");

        client.resource(schedule(2, true)).update();

        kit.await("run 2, and run 1's Secret pruned", () -> job("nightly-run-2") != null
                && secret("nightly-settings-1") == null);
        kit.awaitIdle();
        Job previous = job("nightly-run-1");
        assertThat(previous).as("the previous run").isNotNull();
        assertThat(previous.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getUid()).isEqualTo(schedule.getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
        assertThat(secret("nightly-settings-2")).isNotNull();
        assertThat(kit.eventReasons(schedule)).contains("Pruned");
        assertThat(kit.events(schedule)).filteredOn(e -> "Pruned".equals(e.getReason()))
                .allSatisfy(e -> assertThat(e.getMessage()).startsWith("Secret nightly-settings-1"));
    }

    /**
     * The cache behind the API server: an earlier run's Secret is labelled to keep while the
     * reconcile that no longer applies it runs, so its prune judges the unlabelled version. The
     * delete carries that version as a precondition, and the real API server refuses it (409).
     */
    @Test
    void aSecretLabelledToKeepWhileTheReconcileRunsIsNotPrunedFromTheStaleCache() {
        ConfigMap schedule = client.resource(schedule("weekly", 1, true)).create();
        kit.await("run 1's Secret", () -> secret("weekly-settings-1") != null);
        ConfigMap second = schedule("weekly", 2, true);
        second.getData().put("keep", "weekly-settings-1");

        client.resource(second).update();

        kit.await("run 2's Secret, and run 1's labelled to keep", () -> secret("weekly-settings-2") != null
                && secret("weekly-settings-1") != null
                && secret("weekly-settings-1").getMetadata().getLabels().containsKey(RETAINED_BY));
        kit.awaitIdle();
        assertThat(secret("weekly-settings-1")).as("labelled to keep while the reconcile ran").isNotNull();
        assertThat(kit.eventReasons(schedule)).doesNotContain("Pruned");
    }

    private Job job(String name) {
        return client.batch().v1().jobs().inNamespace(kit.namespace()).withName(name).get();
    }

    private Secret secret(String name) {
        return client.secrets().inNamespace(kit.namespace()).withName(name).get();
    }

    private ConfigMap schedule(int run, boolean retain) {
        return schedule("nightly", run, retain);
    }

    private ConfigMap schedule(String name, int run, boolean retain) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(kit.namespace())
                .addToLabels(SELECTED, "true").endMetadata()
                .addToData("run", String.valueOf(run)).addToData("retain", String.valueOf(retain)).build();
    }
}
