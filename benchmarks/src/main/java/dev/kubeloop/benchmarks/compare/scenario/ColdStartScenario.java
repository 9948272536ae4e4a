package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import dev.kubeloop.benchmarks.compare.server.ServerSession;

/**
 * cold start: N objects exist; time from the contender's start (before its framework is built)
 * until every object's status is written (for bound: seen by its handler). CPU per object is the
 * contender JVM's CPU over the same span, framework start-up and cold JIT included; the notes
 * say how much of it the JIT compiler and GC threads took, and split it at "ready" (caches
 * synced) into the fixed start-up cost and the per-object cost after it.
 */
public final class ColdStartScenario implements Scenario {

    private final int objects;

    public ColdStartScenario(int objects) {
        this.objects = objects;
    }

    @Override
    public String name() {
        return "coldstart";
    }

    @Override
    public String metric() {
        return "time s";
    }

    @Override
    public Measurement run(String contender, int round, ScenarioContext context) throws Exception {
        String runName = name() + "-" + contender + "-r" + round;
        try (ServerSession session = context.open(runName)) {
            session.seed(objects);
            session.forgetRecordedRequests();
            ScenarioContext.Started started = context.startAndReconcileAll(runName, contender, session, objects, true);
            try (ChildProcess child = started.child()) {
                context.settle();
                Event stats = context.stats(child);
                long start = started.starting().longField("wall");
                double seconds = (started.allReconciledWall() - start) / 1e9;
                double cpuMicros = (stats.longField("cpu") - started.starting().longField("cpu")) / 1e3;
                Event starting = started.starting();
                Event ready = started.ready();
                return new Measurement(seconds, objects / seconds, cpuMicros / objects, Measurement.notes(
                        "ready s", (ready.longField("wall") - start) / 1e9,
                        "CPU s to ready", (ready.longField("cpu") - starting.longField("cpu")) / 1e9,
                        "CPU µs/obj after ready", (stats.longField("cpu") - ready.longField("cpu")) / 1e3 / objects,
                        "JIT CPU s", (stats.longField("jitCpu") - starting.longField("jitCpu")) / 1e9,
                        "GC CPU s", (stats.longField("gcCpu") - starting.longField("gcCpu")) / 1e9,
                        "requests/obj", (double) session.requestCount() / objects));
            }
        }
    }
}
