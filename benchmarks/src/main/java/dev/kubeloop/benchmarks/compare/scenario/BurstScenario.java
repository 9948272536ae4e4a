package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import java.util.ArrayList;
import java.util.List;

/**
 * burst: N objects, all reconciled once; then U of them get a spec change each, issued as fast
 * as the driver can (4 requests in flight); time from the first change until every change is
 * reflected in status (for bound: seen). CPU per object is the contender's CPU over that span
 * divided by U.
 */
public final class BurstScenario implements Scenario {

    private final int objects;
    private final int updates;

    public BurstScenario(int objects, int updates) {
        if (updates > objects) {
            throw new IllegalArgumentException("burst updates (" + updates + ") > objects (" + objects + ")");
        }
        this.objects = objects;
        this.updates = updates;
    }

    @Override
    public String name() {
        return "burst";
    }

    @Override
    public String metric() {
        return "time s";
    }

    @Override
    public Measurement run(String contender, int round, ScenarioContext context) throws Exception {
        String runName = name() + "-" + contender + "-r" + round;
        try (ServerSession session = context.open(runName);
                SpecUpdater updater = new SpecUpdater(session)) {
            session.seed(objects);
            ScenarioContext.Started started = context.startAndReconcileAll(runName, contender, session, objects, true);
            try (ChildProcess child = started.child()) {
                context.settle();
                session.forgetRecordedRequests();
                List<String> names = new ArrayList<>(updates);
                for (int i = 0; i < updates; i++) {
                    names.add(BenchObjects.name(i));
                }
                Completion reflected = context.expect(contender, child, session, updates, 2);
                Event before = context.stats(child);
                long start = WallClock.nowNanos();
                updater.burst(names, context.timeout());
                long issued = WallClock.nowNanos();
                long done = reflected.await(context.timeout());
                context.settle();
                Event after = context.stats(child);
                if (updater.failures() > 0) {
                    throw new IllegalStateException(updater.failures() + " spec updates failed");
                }
                double seconds = (done - start) / 1e9;
                double cpuMicros = (after.longField("cpu") - before.longField("cpu")) / 1e3;
                return new Measurement(seconds, updates / seconds, cpuMicros / updates, Measurement.notes(
                        "issued in s", (issued - start) / 1e9,
                        "requests/update", (double) session.requestCount() / updates));
            }
        }
    }
}
