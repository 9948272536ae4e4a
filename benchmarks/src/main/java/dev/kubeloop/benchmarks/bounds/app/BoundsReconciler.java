package dev.kubeloop.benchmarks.bounds.app;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.model.BenchStatus;

/** Reconciles each object the way an operator would at least: writes the generation it saw to status. */
@Reconciler(name = BoundsReconciler.NAME, workers = 4)
public class BoundsReconciler implements ResourceReconciler<BenchResource> {

    static final String NAME = "bounds";

    @Override
    public Result reconcile(BenchResource resource, ReconcileContext<BenchResource> context) {
        resource.setStatus(new BenchStatus(resource.generation()));
        context.updateStatus(resource);
        return Result.done();
    }
}
