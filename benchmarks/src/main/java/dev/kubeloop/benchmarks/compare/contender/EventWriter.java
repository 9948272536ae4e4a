package dev.kubeloop.benchmarks.compare.contender;

import dev.kubeloop.benchmarks.compare.common.Protocol;
import java.io.PrintStream;

/** Writes protocol events to the launcher; one line at a time, from any thread. */
final class EventWriter {

    private final PrintStream out;

    EventWriter(PrintStream out) {
        this.out = out;
    }

    synchronized void send(String type, Object... keysAndValues) {
        out.println(Protocol.event(type, keysAndValues).format());
        out.flush();
    }

    /** Wall time, process CPU (and its JIT and GC parts), heap, uptime and classes loaded: what most answers carry. */
    void sendStats(String type, long wallNanos) {
        send(type, "wall", wallNanos, "cpu", ProcessMetrics.cpuNanos(), "jitCpu", JvmThreadCpu.jitNanos(),
                "gcCpu", JvmThreadCpu.gcNanos(), "heapUsed", ProcessMetrics.heapUsedBytes(),
                "uptimeMs", ProcessMetrics.uptimeMillis(), "classes", ProcessMetrics.loadedClasses());
    }
}
