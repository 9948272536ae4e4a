package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import java.util.ArrayList;
import java.util.List;

/**
 * latency: M objects, all reconciled once; then spec changes at a steady rate, cycling through
 * the objects. Each change carries the time it was sent; the reconciler (bound: the handler)
 * measures now minus that stamp when it starts.
 *
 * <p>The load runs in two phases at the same rate: a warm-up (default 10 s) and the measured
 * period (default 30 s). The first seconds of load in a fresh JVM are a JIT transient (watch
 * events and updates take code paths the cold start did not), which alone decides the p99 of a
 * 30 s run; the table reports the measured period, and the warm-up's p99 as a note, so the cold
 * figure is shown, not hidden. CPU per change is over the measured period.
 */
public final class LatencyScenario implements Scenario {

    private final int objects;
    private final int perSecond;
    private final int warmUpSeconds;
    private final int seconds;

    public LatencyScenario(int objects, int perSecond, int warmUpSeconds, int seconds) {
        this.objects = objects;
        this.perSecond = perSecond;
        this.warmUpSeconds = warmUpSeconds;
        this.seconds = seconds;
    }

    @Override
    public String name() {
        return "latency";
    }

    @Override
    public String metric() {
        return "p99 ms";
    }

    @Override
    public Measurement run(String contender, int round, ScenarioContext context) throws Exception {
        String runName = name() + "-" + contender + "-r" + round;
        int warmUpChanges = perSecond * warmUpSeconds;
        int measuredChanges = perSecond * seconds;
        try (ServerSession session = context.open(runName);
                SpecUpdater updater = new SpecUpdater(session)) {
            session.seed(objects);
            ScenarioContext.Started started = context.startAndReconcileAll(runName, contender, session, objects, true);
            try (ChildProcess child = started.child()) {
                context.settle();
                session.forgetRecordedRequests();
                List<String> names = new ArrayList<>(objects);
                for (int i = 0; i < objects; i++) {
                    names.add(BenchObjects.name(i));
                }
                runLoad(contender, child, session, updater, names, 0, warmUpChanges, context);
                Event cold = child.request(Protocol.LATENCY, Protocol.LATENCY, context.timeout());
                session.forgetRecordedRequests();
                Event before = context.stats(child);
                double issuedPerSecond = runLoad(contender, child, session, updater, names, warmUpChanges,
                        measuredChanges, context);
                Event after = context.stats(child);
                Event latency = child.request(Protocol.LATENCY, Protocol.LATENCY, context.timeout());
                if (updater.failures() > 0) {
                    throw new IllegalStateException(updater.failures() + " spec updates failed");
                }
                double cpuMicros = (after.longField("cpu") - before.longField("cpu")) / 1e3;
                return new Measurement(latency.longField("p99") / 1e6, Double.NaN, cpuMicros / measuredChanges,
                        Measurement.notes(
                                "p50 ms", latency.longField("p50") / 1e6,
                                "max ms", latency.longField("max") / 1e6,
                                "samples", latency.longField("count"),
                                "issued/s", issuedPerSecond,
                                "warm-up p99 ms", cold.longField("p99") / 1e6));
            }
        }
    }

    /**
     * Makes changes {@code first .. first + count - 1} of the round robin and waits until the
     * contender has reflected all of them, then the settle period (so CPU read afterwards includes
     * the watch echoes of the last status writes). Returns the rate at which the server accepted
     * the changes: below the asked rate, the server (next to the contender) cannot write that fast.
     */
    private double runLoad(String contender, ChildProcess child, ServerSession session, SpecUpdater updater,
            List<String> names, int first, int count, ScenarioContext context) throws Exception {
        int total = first + count;
        // after change i, object j has had (total / M) changes, plus one if j < total % M
        int fewest = total / objects;
        int withOneMore = total % objects;
        Completion all = context.expect(contender, child, session, objects, 1 + fewest);
        Completion more = withOneMore == 0 ? null : context.expect(contender, child, session, withOneMore, 2 + fewest);
        long start = System.nanoTime();
        updater.atRate(names, first, count, perSecond, context.timeout().plusSeconds(count / perSecond));
        double issuedPerSecond = count / ((System.nanoTime() - start) / 1e9);
        all.await(context.timeout());
        if (more != null) {
            more.await(context.timeout());
        }
        context.settle();
        return issuedPerSecond;
    }
}
