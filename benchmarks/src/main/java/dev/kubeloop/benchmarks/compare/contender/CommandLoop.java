package dev.kubeloop.benchmarks.compare.contender;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import java.io.BufferedReader;
import java.io.IOException;

/** Answers the launcher's commands (see {@link Protocol}) until STOP or the end of stdin. */
final class CommandLoop {

    private final EventWriter events;
    private final ReconcileProbe probe;
    private final GenerationTracker seen;

    CommandLoop(EventWriter events, ReconcileProbe probe, GenerationTracker seen) {
        this.events = events;
        this.probe = probe;
        this.seen = seen;
    }

    void run(BufferedReader commands) throws IOException {
        String line;
        while ((line = commands.readLine()) != null) {
            String[] words = line.trim().split(" ");
            switch (words[0]) {
                case Protocol.STATS -> events.sendStats(Protocol.STATS, WallClock.nowNanos());
                case Protocol.GC -> {
                    ProcessMetrics.fullGc();
                    events.sendStats(Protocol.STATS, WallClock.nowNanos());
                }
                case Protocol.LATENCY -> {
                    LatencyRecorder.Summary summary = probe.latencies().takeSummary();
                    events.send(Protocol.LATENCY, "count", summary.count(), "p50", summary.p50Nanos(),
                            "p99", summary.p99Nanos(), "max", summary.maxNanos());
                }
                case Protocol.AWAIT_SEEN -> awaitSeen(words[1], Integer.parseInt(words[2]), Long.parseLong(words[3]),
                        words.length > 4 ? words[4] : null);
                case Protocol.STOP -> {
                    return;
                }
                default -> throw new IllegalArgumentException("unknown command: " + line);
            }
        }
    }

    private void awaitSeen(String id, int count, long minGeneration, String name) {
        if (seen == null) {
            throw new IllegalStateException("AWAIT_SEEN needs tracking (--track=true)");
        }
        GenerationTracker.Target target = name == null ? seen.expect(count, minGeneration)
                : seen.expectName(name, minGeneration);
        events.send(Protocol.REGISTERED, "id", id);
        target.whenReached(wall -> events.send(Protocol.SEEN, "id", id, "wall", wall));
    }
}
