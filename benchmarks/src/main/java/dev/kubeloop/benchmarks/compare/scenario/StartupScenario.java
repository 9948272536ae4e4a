package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.server.ServerSession;

/**
 * startup: from forking the JVM until the contender is ready (caches synced) on an empty
 * namespace: what a minimal operator costs to start. Notes: the contender's own share (from
 * before it is constructed, once the JVM and the harness are up), the process CPU spent by then
 * (all threads since the JVM started), the JIT compiler threads' part of it, and the classes loaded.
 */
public final class StartupScenario implements Scenario {

    @Override
    public String name() {
        return "startup";
    }

    @Override
    public String metric() {
        return "ready ms";
    }

    @Override
    public boolean supports(String contender) {
        return true;
    }

    @Override
    public Measurement run(String contender, int round, ScenarioContext context) throws Exception {
        String runName = name() + "-" + contender + "-r" + round;
        try (ServerSession session = context.open(runName)) {
            long forked = WallClock.nowNanos();
            try (ChildProcess child = context.launch(runName, contender, session, false, 0)) {
                Event starting = child.await(Protocol.STARTING, context.timeout());
                Event ready = child.await(Protocol.READY, context.timeout());
                return new Measurement((ready.longField("wall") - forked) / 1e6, Double.NaN, Double.NaN, Measurement.notes(
                        "framework ms", (ready.longField("wall") - starting.longField("wall")) / 1e6,
                        "CPU ms", ready.longField("cpu") / 1e6,
                        "JIT CPU ms", ready.longField("jitCpu") / 1e6,
                        "classes", ready.longField("classes")));
            }
        }
    }
}
