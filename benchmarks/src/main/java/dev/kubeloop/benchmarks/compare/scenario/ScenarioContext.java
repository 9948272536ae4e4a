package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import dev.kubeloop.benchmarks.compare.server.ApiServer;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What scenarios share: opening a server session, starting a contender JVM against it, and
 * waiting for "every object reconciled", which is seen on the API server for the contenders that
 * write status and in the contender process for "bound", which writes nothing.
 */
public final class ScenarioContext {

    /** A contender that has reconciled (or, for bound, seen) every seeded object once. */
    record Started(ChildProcess child, Event starting, Event ready, long allReconciledWall) {
    }

    private final ApiServer server;
    private final LaunchSettings settings;
    private final AtomicInteger awaitIds = new AtomicInteger();

    public ScenarioContext(ApiServer server, LaunchSettings settings) {
        this.server = server;
        this.settings = settings;
    }

    Duration timeout() {
        return settings.timeout();
    }

    static boolean writesStatus(String contender) {
        return reconciles(contender) && !contender.equals("bound");
    }

    /** All contenders but "spring-boot", the floor of a Spring Boot start, which watches nothing. */
    public static boolean reconciles(String contender) {
        return !contender.equals("spring-boot");
    }

    ServerSession open(String runName) throws Exception {
        return server.open(runName);
    }

    /** Starts a contender JVM on the session's namespace; events are awaited on the result. */
    ChildProcess launch(String runName, String contender, ServerSession session, boolean track, int awaitInitial)
            throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "--contender=" + contender,
                "--namespace=" + session.namespace(),
                "--workers=" + settings.workers(),
                "--track=" + track,
                "--await-initial=" + awaitInitial,
                "--write=" + settings.write().flag()));
        if (session.masterUrl() != null) {
            args.add("--master=" + session.masterUrl());
        }
        if (settings.jfrContenders().contains(contender)) {
            Files.createDirectories(settings.jfrFile(runName).getParent());
        }
        if (settings.archived(contender)) {
            Files.createDirectories(settings.archive(contender).getParent());
        }
        return ChildProcess.start(settings.command(contender, runName, args), settings.logFile(runName),
                runName);
    }

    /**
     * Starts a contender on a session holding {@code objects} objects and waits until it has
     * reconciled every one of them once.
     */
    Started startAndReconcileAll(String runName, String contender, ServerSession session, int objects, boolean track)
            throws Exception {
        boolean serverSide = writesStatus(contender);
        // registered before the contender starts, so the time it is reached is exact
        GenerationTracker.Target allWritten = serverSide ? session.statusWrites().expect(objects, 1) : null;
        ChildProcess child = launch(runName, contender, session, track, serverSide ? 0 : objects);
        try {
            Event starting = child.await(Protocol.STARTING, timeout());
            Event ready = child.await(Protocol.READY, timeout());
            long done = serverSide ? allWritten.await(timeout())
                    : child.await(Protocol.SEEN, "initial", timeout()).longField("wall");
            return new Started(child, starting, ready, done);
        } catch (Exception | Error e) {
            child.close();
            throw e;
        }
    }

    /**
     * Registers a wait for {@code count} objects at {@code minGeneration} or later; call it before
     * causing the changes, so the time it is reached is exact.
     */
    Completion expect(String contender, ChildProcess child, ServerSession session, int count, long minGeneration)
            throws InterruptedException {
        if (writesStatus(contender)) {
            return session.statusWrites().expect(count, minGeneration)::await;
        }
        return expectSeen(child, count + " " + minGeneration);
    }

    /** Registers a wait in the contender process for the named object to be seen (reconcile started). */
    Completion expectSeen(ChildProcess child, String name, long minGeneration) throws InterruptedException {
        return expectSeen(child, "1 " + minGeneration + " " + name);
    }

    private Completion expectSeen(ChildProcess child, String arguments) throws InterruptedException {
        String id = "w" + awaitIds.incrementAndGet();
        child.request(Protocol.AWAIT_SEEN + " " + id + " " + arguments, Protocol.REGISTERED, timeout());
        return timeout -> child.await(Protocol.SEEN, id, timeout).longField("wall");
    }

    /** Process CPU, heap and wall time of the contender, now. */
    Event stats(ChildProcess child) throws InterruptedException {
        return child.request(Protocol.STATS, Protocol.STATS, timeout());
    }

    /**
     * Waits a fixed quiet period. The server has accepted the last status write before the
     * contender has processed the watch events those writes cause; CPU is read after this
     * period so that it includes that work, for every contender alike.
     */
    void settle() throws InterruptedException {
        Thread.sleep(settings.settle().toMillis());
    }
}
