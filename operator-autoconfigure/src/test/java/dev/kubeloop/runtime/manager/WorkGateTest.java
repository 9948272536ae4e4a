package dev.kubeloop.runtime.manager;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The manager's side of leader election: caches sync whatever the gate says, workers run only
 * while it keeps them started, a pause keeps the keys, and stop tells the gate in the order that
 * makes a hand-over safe (shutdown started, workers drained, gate closed, informers stopped).
 */
class WorkGateTest extends MockClusterTestSupport {

    private static final long DEADLINE_SECONDS = Eventually.DEADLINE.toSeconds();

    private final ManualGate gate = new ManualGate();
    private final RecordingReconciler reconciler = new RecordingReconciler();
    private Controller<Widget> controller;

    @BeforeEach
    void gatedManager() {
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).workGate(gate).build();
        controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
    }

    @Test
    void aClosedGateKeepsTheWorkersIdleWhileCachesSyncAndKeysQueueUp() {
        client.resource(Widget.named("ns", "a")).create();
        manager.start();

        assertThat(manager.hasSynced()).isTrue();
        assertThat(gate.events).containsExactly("open");
        client.resource(Widget.named("ns", "b")).create();
        eventually().until(() -> controller.queueStats().depth() == 2);
        assertThat(manager.workersRunning()).isFalse();
        assertThat(workerThreads()).isEmpty();
        assertThat(reconciler.calls()).isEmpty();

        gate.workers.start();

        eventually().until(() -> reconciler.count("ns/a") == 1 && reconciler.count("ns/b") == 1);
        assertThat(manager.workersRunning()).isTrue();
    }

    @Test
    void pausingInterruptsReconcilesInFlightAndKeepsTheirKeysForTheNextStart() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        reconciler.behaving((widget, context) -> {
            if (reconciler.count("ns/a") == 1) {
                entered.countDown();
                try {
                    new CountDownLatch(1).await(DEADLINE_SECONDS, TimeUnit.SECONDS);
                    interrupted.complete(false);
                } catch (InterruptedException e) {
                    interrupted.complete(true);
                    throw e;
                }
            }
            return Result.done();
        });
        manager.start();
        gate.workers.start();
        client.resource(Widget.named("ns", "a")).create();
        assertThat(entered.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();

        assertThat(gate.workers.stop(Duration.ofSeconds(5))).as("every reconcile ended").isTrue();

        assertThat(interrupted).isCompletedWithValue(true);
        assertThat(workersEnd()).isEmpty();
        assertThat(controller.queueStats().depth()).as("the interrupted key is still queued").isEqualTo(1);
        assertThat(controller.count(ReconcileOutcome.ERROR)).isEqualTo(1);

        gate.workers.start();

        eventually().until(() -> reconciler.count("ns/a") == 2);
        assertThat(reconciler.callsFor("ns/a").get(1).retryCount()).as("no backoff after a pause").isZero();
    }

    @Test
    void aReconcileThatSwallowsTheInterruptStillLetsItsWorkerEnd() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        reconciler.behaving((widget, context) -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await(DEADLINE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                // swallowed: the worker must not go back to waiting for keys
            }
            return Result.done();
        });
        manager.start();
        gate.workers.start();
        client.resource(Widget.named("ns", "a")).create();
        assertThat(entered.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();

        assertThat(gate.workers.stop(Duration.ofSeconds(5))).as("every worker ended").isTrue();

        assertThat(workersEnd()).isEmpty();
        assertThat(controller.count(ReconcileOutcome.SUCCESS)).isEqualTo(1);
    }

    @Test
    void startingTheWorkersAgainReconcilesEveryCachedObjectOnce() {
        manager.start();
        gate.workers.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> reconciler.count("ns/a") == 1);
        gate.workers.stop(Duration.ofSeconds(5));

        gate.workers.start();

        // another replica may have changed anything meanwhile: a new term reconciles everything
        eventually().until(() -> reconciler.count("ns/a") == 2);
    }

    @Test
    void aNewTermQueuesTheCacheInTheApiServersListOrder() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            names.add(String.format("w%02d", i));
        }
        List<String> created = new ArrayList<>(names);
        Collections.shuffle(created, new Random(7));
        created.forEach(name -> client.resource(Widget.named("ns", name)).create());
        manager.start();
        // every add of the first list handed to the queue, so that none arrives during a term
        eventually().until(() -> controller.queueStats().depth() == names.size());
        gate.workers.start();
        eventually().until(() -> reconciler.calls().size() == names.size() && controller.queueStats().depth() == 0);
        gate.workers.stop(Duration.ofSeconds(5));
        int firstTerm = reconciler.calls().size();

        gate.workers.start(); // one worker: reconciles happen in queue order

        eventually().until(() -> reconciler.calls().size() >= firstTerm + names.size());
        List<String> secondTerm = reconciler.calls().subList(firstTerm, firstTerm + names.size()).stream()
                .map(RecordingReconciler.Call::key).toList();
        assertThat(secondTerm).as("not the cache's hash order").containsExactlyElementsOf(
                names.stream().map(name -> "ns/" + name).toList());
    }

    @Test
    void stopTellsTheGateThenDrainsThenClosesItBeforeTheInformersStop() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        reconciler.behaving((widget, context) -> {
            entered.countDown();
            release.await();
            gate.events.add("reconcile finished");
            return Result.done();
        });
        manager.start();
        gate.workers.start();
        client.resource(Widget.named("ns", "a")).create();
        assertThat(entered.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> stopped = CompletableFuture.runAsync(manager::stop);
        eventually().until(() -> gate.events.contains("shutdownStarted"));
        gate.workers.start(); // a gate that acquires the Lease now must not restart anything
        release.countDown();
        stopped.get(DEADLINE_SECONDS, TimeUnit.SECONDS);

        assertThat(gate.events).containsExactly("open", "shutdownStarted", "reconcile finished", "close");
        assertThat(gate.syncedAtClose).as("informers still running when the gate closes").isTrue();
        assertThat(workersEnd()).isEmpty();
    }

    @Test
    void theManagerReportsTheGatesLeadershipState() {
        assertThat(ControllerManager.builder(client).build().leadership()).isEqualTo(LeadershipState.NOT_ELECTED);
        assertThat(manager.leadership().role()).isEqualTo(LeadershipState.Role.STANDBY);
    }

    /**
     * The worker threads still alive after a grace: a terminated executor has run its last task, but
     * each of its threads still has to return from {@code run()}.
     */
    private static List<Thread> workersEnd() throws InterruptedException {
        for (Thread worker : workerThreads()) {
            worker.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
        }
        return workerThreads();
    }

    private static List<Thread> workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("kubeloop-widget-") && thread.isAlive()).toList();
    }

    /** A gate the test opens and closes by hand, recording the manager's calls. */
    private final class ManualGate implements WorkGate {
        final List<String> events = new CopyOnWriteArrayList<>();
        volatile Workers workers;
        volatile boolean syncedAtClose;

        @Override
        public void open(Workers opened) {
            workers = opened;
            events.add("open");
        }

        @Override
        public void shutdownStarted() {
            events.add("shutdownStarted");
        }

        @Override
        public void close() {
            if (workers != null) {
                syncedAtClose = manager.hasSynced();
                events.add("close");
            }
        }

        @Override
        public LeadershipState state() {
            return new LeadershipState(true, LeadershipState.Role.STANDBY, "me", "ns", "lease", null, null);
        }
    }
}
