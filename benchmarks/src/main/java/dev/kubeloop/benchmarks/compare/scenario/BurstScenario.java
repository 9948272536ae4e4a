package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * burst: N objects, all reconciled once; then U of them get a spec change each, issued as fast
 * as the driver can (4 requests in flight); time from the first change until every change is
 * reflected in status (for bound: seen). CPU per object is the contender's CPU over that span
 * divided by U.
 *
 * <p>A JVM that has reconciled N objects once is not warm: its compiler still works through the
 * change path during the first thousands of changes (130–580 µs of JIT CPU per change in a
 * 5,000- or 10,000-change burst, 2026-11-26). {@code warmups} unmeasured bursts of the same U
 * objects before the measured one leave the measured burst to the compiled code.
 */
public final class BurstScenario implements Scenario {

    private final int objects;
    private final int updates;
    private final int warmups;

    public BurstScenario(int objects, int updates, int warmups) {
        if (updates > objects) {
            throw new IllegalArgumentException("burst updates (" + updates + ") > objects (" + objects + ")");
        }
        if (warmups < 0) {
            throw new IllegalArgumentException("burst warm-ups (" + warmups + ") < 0");
        }
        this.objects = objects;
        this.updates = updates;
        this.warmups = warmups;
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
                for (int warmup = 1; warmup <= warmups; warmup++) {
                    Completion warmed = context.expect(contender, child, session, updates, 1 + warmup);
                    updater.burst(names, context.timeout());
                    warmed.await(context.timeout());
                    context.settle();
                }
                Completion reflected = context.expect(contender, child, session, updates, 2 + warmups);
                Event before = context.stats(child);
                long start = WallClock.nowNanos();
                updater.burst(names, context.timeout());
                long issued = WallClock.nowNanos();
                long done = reflected.await(context.timeout());
                // The span JfrBreakdown --from/--to limits a recording of this run to.
                System.err.printf("%s: changes from %s to %s%n", runName, instant(start), instant(done));
                context.settle();
                Event after = context.stats(child);
                if (updater.failures() > 0) {
                    throw new IllegalStateException(updater.failures() + " spec updates failed");
                }
                double seconds = (done - start) / 1e9;
                double cpuMicros = (after.longField("cpu") - before.longField("cpu")) / 1e3;
                return new Measurement(seconds, updates / seconds, cpuMicros / updates, Measurement.notes(
                        "issued in s", (issued - start) / 1e9,
                        "JIT CPU µs/upd", (after.longField("jitCpu") - before.longField("jitCpu")) / 1e3 / updates,
                        "GC CPU µs/upd", (after.longField("gcCpu") - before.longField("gcCpu")) / 1e3 / updates,
                        "requests/update", (double) session.requestCount() / updates));
            }
        }
    }

    private static Instant instant(long epochNanos) {
        return Instant.ofEpochSecond(0, epochNanos);
    }
}
