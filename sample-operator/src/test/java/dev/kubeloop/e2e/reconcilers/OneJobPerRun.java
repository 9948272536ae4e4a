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
import org.springframework.context.annotation.Bean;

/**
 * For each ConfigMap labelled {@value #SELECTED}{@code =true}: the Job of the run its {@code run}
 * names (applied with {@code retain()} when its {@code retain} says so) and the run's Secret, an
 * ordinary child. Outside {@code dev.kubeloop.sample}, so that the scan for reconcilers of the
 * sample's tests does not find it: only a test that imports {@link Config} has it.
 */
@Reconciler(name = "e2e-runs", labelSelector = OneJobPerRun.SELECTED + "=true", owns = {Job.class, Secret.class},
        deletes = {Job.class, Secret.class}, // pruning: the last run's Secret, a run applied without retain()
        generationAware = false) // a ConfigMap has no generation: every change of its data is a new run
public class OneJobPerRun implements ResourceReconciler<ConfigMap> {

    public static final String SELECTED = "kubeloop.dev/e2e-runs";

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
        return Result.done();
    }

    /** For {@code @Import}. */
    public static class Config {

        @Bean
        OneJobPerRun oneJobPerRun() {
            return new OneJobPerRun();
        }
    }
}
