package dev.kubeloop.benchmarks.compare.contender.josdk;

import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.model.BenchStatus;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * The benchmark's reconcile the way a JOSDK user writes it: set the status on the object JOSDK
 * hands in (its own copy) and return {@link UpdateControl#patchStatus}, letting JOSDK write it.
 * Generation-aware event processing is JOSDK's default, as it is Kubeloop's.
 */
@ControllerConfiguration(name = "benchresource")
public final class JosdkBenchReconciler implements Reconciler<BenchResource> {

    private final ReconcileProbe probe;

    public JosdkBenchReconciler(ReconcileProbe probe) {
        this.probe = probe;
    }

    @Override
    public UpdateControl<BenchResource> reconcile(BenchResource resource, Context<BenchResource> context) {
        probe.reconcileStarted(resource);
        resource.setStatus(new BenchStatus(resource.generation()));
        return UpdateControl.patchStatus(resource);
    }
}
