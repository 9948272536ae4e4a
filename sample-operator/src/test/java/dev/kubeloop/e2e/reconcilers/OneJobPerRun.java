package dev.kubeloop.e2e.reconcilers;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.context.annotation.Bean;

/**
 * For each ConfigMap labelled {@value #SELECTED}{@code =true}: the Job of the run its {@code run}
 * names (applied with {@code retain()} when its {@code retain} says so) and the run's Secret, an
 * ordinary child; when its {@code keep} names a Secret, that Secret is labelled retained by hand
 * (through the plain client, as a user would) before the reconcile returns. Outside {@code dev.kubeloop.sample}, so that the scan for reconcilers of the
 * sample's tests does not find it: only a test that imports {@link Config} has it.
 */
@Reconciler(name = "e2e-runs", labelSelector = OneJobPerRun.SELECTED + "=true", owns = {Job.class, Secret.class},
        deletes = {Job.class, Secret.class}, // pruning: the last run's Secret, a run applied without retain()
        generationAware = false) // a ConfigMap has no generation: every change of its data is a new run
public class OneJobPerRun implements ResourceReconciler<ConfigMap> {

    public static final String SELECTED = "kubeloop.dev/e2e-runs";
    private static final String RETAINED_BY = "kubeloop.dev/retained-by";

    private final KubernetesClient client;

    public OneJobPerRun(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Result reconcile(ConfigMap schedule, ReconcileContext<ConfigMap> context) {
        String name = schedule.getMetadata().getName();
        String run = schedule.getData().get("run");
        Job job = new JobBuilder().withNewMetadata().withName(name + "-run-" + run).endMetadata().withNewSpec()
                .withNewTemplate().withNewSpec().addNewContainer().withName("run").withImage("busybox")
                .endContainer().withRestartPolicy("Never").endSpec().endTemplate().endSpec().build();
        ApplyOptions options = ApplyOptions.defaults();
        context.apply(job, Boolean.parseBoolean(schedule.getData().get("retain")) ? options.retain() : options);
        context.apply(new SecretBuilder().withNewMetadata().withName(name + "-settings-" + run).endMetadata()
                .addToData("run", "cnVu").build());
        String keep = schedule.getData().get("keep");
        if (keep != null) {
            // someone else labels an earlier run's Secret to keep it while this reconcile runs: the prune
            // that follows judges it from a cache that has not seen the label yet
            client.secrets().inNamespace(schedule.getMetadata().getNamespace()).withName(keep)
                    .edit(secret -> new SecretBuilder(secret).editMetadata().addToLabels(RETAINED_BY, "e2e-runs")
                            .endMetadata().build());
        }
        return Result.done();
    }

    /** For {@code @Import}. */
    public static class Config {

        @Bean
        OneJobPerRun oneJobPerRun(KubernetesClient client) {
            return new OneJobPerRun(client);
        }
    }
}
