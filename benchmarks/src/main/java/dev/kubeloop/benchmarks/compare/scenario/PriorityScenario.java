package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * priority: N objects exist; the contender starts, and as soon as the first of them has its
 * status written (the initial list is being worked off) the launcher creates one more object.
 * Reports how long that fresh object waited for its status, plus how many of the N were done
 * before it, when its reconcile started (seen in the contender) and when all N were done. A FIFO queue makes it wait for the whole list; a queue that
 * puts the initial list at low priority (controller-runtime's, Kubeloop's) does not. Not for
 * "bound", which has no queue.
 */
public final class PriorityScenario implements Scenario {

    static final String FRESH = "bench-fresh";

    private final int objects;

    public PriorityScenario(int objects) {
        this.objects = objects;
    }

    @Override
    public String name() {
        return "priority";
    }

    @Override
    public String metric() {
        return "fresh ms";
    }

    @Override
    public boolean supports(String contender) {
        return ScenarioContext.writesStatus(contender);
    }

    @Override
    public Measurement run(String contender, int round, ScenarioContext context) throws Exception {
        String runName = name() + "-" + contender + "-r" + round;
        try (ServerSession session = context.open(runName)) {
            session.seed(objects);
            session.forgetRecordedRequests();
            GenerationTracker writes = session.statusWrites();
            GenerationTracker.Target firstWritten = writes.expect(1, 1);
            GenerationTracker.Target freshWritten = writes.expectName(FRESH, 1);
            GenerationTracker.Target allWritten = writes.expect(objects + 1, 1);
            // runs on the thread recording the fresh object's status, under the tracker's lock: exact
            AtomicInteger doneBeforeFresh = new AtomicInteger(-1);
            freshWritten.whenReached(wall -> doneBeforeFresh.set(writes.count(1) - 1));
            try (ChildProcess child = context.launch(runName, contender, session, true, 0)) {
                Event starting = child.await(Protocol.STARTING, context.timeout());
                firstWritten.await(context.timeout());
                Completion freshStarted = context.expectSeen(child, FRESH, 1);
                long created = WallClock.nowNanos();
                BenchResource fresh = BenchObjects.create(session.namespace(), FRESH);
                fresh.getMetadata().setManagedFields(null);
                session.client().resource(fresh).create();
                long accepted = WallClock.nowNanos();
                long freshDone = freshWritten.await(context.timeout());
                long freshReconcileStart = freshStarted.await(context.timeout());
                long drained = allWritten.await(context.timeout());
                // lets the mock's watch send its last events before the contender disconnects: a
                // watch closed with events pending blocks the mock's event loop for up to a minute
                context.settle();
                long start = starting.longField("wall");
                return new Measurement((freshDone - created) / 1e6, Double.NaN, Double.NaN, Measurement.notes(
                        "done before fresh", (double) doneBeforeFresh.get(),
                        "create took ms", (accepted - created) / 1e6,
                        "reconcile started at ms", (freshReconcileStart - created) / 1e6,
                        "fresh created at s", (created - start) / 1e9,
                        "list drained at s", (drained - start) / 1e9));
            }
        }
    }
}
