package dev.kubeloop.benchmarks.compare.contender;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The entry point of a contender process, forked by the launcher
 * ({@link dev.kubeloop.benchmarks.compare.CompareMain}) once per contender and run, so that every
 * run starts with a cold JIT and an empty heap. Starts one contender, reports STARTING and READY
 * (caches synced), then answers the launcher's commands on stdin until STOP or end of input.
 */
public final class ContenderMain {

    private ContenderMain() {
    }

    public static void main(String[] args) throws IOException {
        ContenderOptions options = ContenderOptions.parse(args);
        EventWriter events = new EventWriter(System.out);
        GenerationTracker seen = options.track() ? new GenerationTracker() : null;
        ReconcileProbe probe = new ReconcileProbe(seen);
        if (seen != null && options.awaitInitial() > 0) {
            // registered before the contender starts, so the time is the exact one
            seen.expect(options.awaitInitial(), 1).whenReached(wall -> events.send(Protocol.SEEN, "id", "initial",
                    "wall", wall));
        }
        try {
            // STARTING before the contender is even constructed: some build their client and framework in
            // the constructor, and that is part of their start as much as a Spring context refresh is
            events.sendStats(Protocol.STARTING, WallClock.nowNanos());
            Contender contender = Contender.create(options, probe);
            contender.start();
            events.sendStats(Protocol.READY, WallClock.nowNanos());
            new CommandLoop(events, probe, seen).run(new BufferedReader(
                    new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            contender.close();
            events.send(Protocol.STOPPED);
        } catch (Exception | Error e) {
            e.printStackTrace();
            events.send(Protocol.FAILED, "error", String.valueOf(e).replace('\n', ' '));
            System.exit(1);
        }
        // some libraries leave non-daemon threads behind; the launcher only needs the process gone
        System.exit(0);
    }
}
