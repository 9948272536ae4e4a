package dev.kubeloop.benchmarks.compare.contender.josdk;

import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.model.BenchStatus;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * The benchmark's reconcile the way a JOSDK user writes it: set the status on the object JOSDK
 * hands in (its own copy) and, with server-side apply, return {@link UpdateControl#patchStatus},
 * letting JOSDK write it; with a merge patch, write it through
 * {@code context.resourceOperations().jsonMergePatchPrimaryStatus} (JOSDK's merge patch that keeps
 * the written object in its cache for the next reconcile, as Kubeloop's writes do) and return
 * {@link UpdateControl#noUpdate}. Generation-aware event processing is JOSDK's default, as it is
 * Kubeloop's.
 */
@ControllerConfiguration(name = "benchresource")
public final class JosdkBenchReconciler implements Reconciler<BenchResource> {

    private final ReconcileProbe probe;
    private final StatusWrite write;

    public JosdkBenchReconciler(ReconcileProbe probe, StatusWrite write) {
        this.probe = probe;
        this.write = write;
    }

    @Override
    public UpdateControl<BenchResource> reconcile(BenchResource resource, Context<BenchResource> context) {
        probe.reconcileStarted(resource);
        resource.setStatus(new BenchStatus(resource.generation()));
        if (write == StatusWrite.MERGE) {
            context.resourceOperations().jsonMergePatchPrimaryStatus(resource);
            return UpdateControl.noUpdate();
        }
        return UpdateControl.patchStatus(resource);
    }
}
