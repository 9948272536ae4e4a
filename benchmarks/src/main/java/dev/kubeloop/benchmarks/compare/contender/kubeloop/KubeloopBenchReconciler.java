package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.model.BenchStatus;

/**
 * The benchmark's reconcile the way a Kubeloop user writes it: set the status on the object
 * (Kubeloop hands in a copy of the cached one) and write it with {@link ReconcileContext#applyStatus}
 * (server-side apply of /status; sent only when the status changed) or, when the invocation
 * writes with a patch ({@link StatusWrite#MERGE}), with {@link ReconcileContext#updateStatus}:
 * Kubeloop's patch write, a JSON patch replacing /status locked on the resourceVersion (Kubeloop
 * has no merge-patch status write; the request is about the size of the others' merge patch).
 * The worker count is the W = 4; the launcher passes the same value as a property too.
 */
@Reconciler(name = "benchresource", workers = 4)
public class KubeloopBenchReconciler implements ResourceReconciler<BenchResource> {

    private final ReconcileProbe probe;
    private final boolean patch;

    public KubeloopBenchReconciler(ReconcileProbe probe, ContenderOptions options) {
        this.probe = probe;
        this.patch = options.write() == StatusWrite.MERGE;
    }

    @Override
    public Result reconcile(BenchResource resource, ReconcileContext<BenchResource> context) {
        probe.reconcileStarted(resource);
        resource.setStatus(new BenchStatus(resource.generation()));
        if (patch) {
            context.updateStatus(resource);
        } else {
            context.applyStatus(resource);
        }
        return Result.done();
    }
}
