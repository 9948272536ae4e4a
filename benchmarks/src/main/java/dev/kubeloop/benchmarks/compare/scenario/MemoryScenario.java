package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.server.ServerSession;

/**
 * memory: heap used after full collections once the contender has N objects cached (and, if it
 * writes status, reconciled), minus the same reading with no objects, divided by N. Two JVMs per
 * contender and round; tracking is off in both, so the harness keeps nothing per object. The
 * objects carry labels, annotations (last-applied-configuration) and managedFields.
 */
public final class MemoryScenario implements Scenario {

    private final int objects;

    public MemoryScenario(int objects) {
        this.objects = objects;
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public String metric() {
        return "B/object";
    }

    @Override
    public Measurement run(String contender, int round, ScenarioContext context) throws Exception {
        String runName = name() + "-" + contender + "-r" + round;
        long empty = heapAfterFullGc(runName + "-empty", contender, 0, context);
        long full = heapAfterFullGc(runName, contender, objects, context);
        return new Measurement((double) (full - empty) / objects, Double.NaN, Double.NaN, Measurement.notes(
                "heap MB", full / 1048576.0,
                "empty MB", empty / 1048576.0));
    }

    private long heapAfterFullGc(String runName, String contender, int count, ScenarioContext context)
            throws Exception {
        try (ServerSession session = context.open(runName)) {
            session.seed(count);
            session.forgetRecordedRequests();
            try (ChildProcess child = start(runName, contender, count, session, context)) {
                context.settle();
                return child.request(Protocol.GC, Protocol.STATS, context.timeout()).longField("heapUsed");
            }
        }
    }

    /** A contender with every object cached: after its status write, or for bound once synced. */
    private static ChildProcess start(String runName, String contender, int count, ServerSession session,
            ScenarioContext context) throws Exception {
        if (count > 0 && ScenarioContext.writesStatus(contender)) {
            return context.startAndReconcileAll(runName, contender, session, count, false).child();
        }
        ChildProcess child = context.launch(runName, contender, session, false, 0);
        try {
            child.await(Protocol.READY, context.timeout());
            return child;
        } catch (Exception | Error e) {
            child.close();
            throw e;
        }
    }
}
