package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.model.BenchStatus;

/**
 * The benchmark's reconcile the way a Kubeloop user writes it: set the status on the object
 * (Kubeloop hands in a copy of the cached one) and write it with {@link ReconcileContext#applyStatus}
 * (server-side apply of /status: not locked on the resourceVersion, so a spec change made meanwhile
 * does not fail it; sent only when the status changed).
 * The worker count is the W = 4; the launcher passes the same value as a property too.
 *
 * <p>With {@code BENCH_KUBELOOP_STATUS_WRITE=update} in the environment (contender JVMs inherit
 * the launcher's), it writes with {@link ReconcileContext#updateStatus} instead, the path the runs
 * before issue 17 measured: a JSON patch of /status, the same request {@code bound+patch} and
 * JOSDK send. The mock's server-side apply costs the single-threaded mock several times a patch,
 * so only then do the cold starts compare the frameworks rather than the mock's two write paths.
 */
@Reconciler(name = "benchresource", workers = 4)
public class KubeloopBenchReconciler implements ResourceReconciler<BenchResource> {

    private static final boolean UPDATE = "update".equals(System.getenv("BENCH_KUBELOOP_STATUS_WRITE"));

    private final ReconcileProbe probe;

    public KubeloopBenchReconciler(ReconcileProbe probe) {
        this.probe = probe;
    }

    @Override
    public Result reconcile(BenchResource resource, ReconcileContext<BenchResource> context) {
        probe.reconcileStarted(resource);
        resource.setStatus(new BenchStatus(resource.generation()));
        if (UPDATE) {
            context.updateStatus(resource);
        } else {
            context.applyStatus(resource);
        }
        return Result.done();
    }
}
