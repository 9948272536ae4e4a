package dev.kubeloop.benchmarks.compare.contender;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every contender's reconciler (or, for "bound", its event handler) calls first, so all
 * contenders pay the same measuring cost: it records the event-to-reconcile latency of each new
 * spec stamp and, when tracking is on, which generation of which object was seen.
 *
 * <p>Tracking keeps a map entry per object, which would be counted as the framework's heap in
 * the memory scenario; that scenario switches it off (completion is then seen on the API server).
 * Thread-safe: called concurrently by the workers.
 */
public final class ReconcileProbe {

    private final LatencyRecorder latencies = new LatencyRecorder();
    private final Map<String, Long> lastStamp = new ConcurrentHashMap<>();
    private final GenerationTracker seen;

    /** @param seen where to record observed generations; null turns tracking off */
    public ReconcileProbe(GenerationTracker seen) {
        this.seen = seen;
    }

    public void reconcileStarted(BenchResource resource) {
        long now = WallClock.nowNanos();
        String name = resource.getMetadata().getName();
        long stamp = resource.getSpec() == null ? 0 : resource.getSpec().getStampNanos();
        // only the first reconcile that sees a stamp measures it: a later one (a retry, a resync)
        // would measure how long the object sat unchanged, not how long the framework took
        if (stamp > 0) {
            Long previous = lastStamp.put(name, stamp);
            if (previous == null || previous != stamp) {
                latencies.record(now - stamp);
            }
        }
        if (seen != null) {
            seen.record(name, resource.generation(), now);
        }
    }

    public LatencyRecorder latencies() {
        return latencies;
    }
}
