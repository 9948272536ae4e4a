package dev.kubeloop.benchmarks.failover;

import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.server.MockApiServer;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Leader failover time: how long after the leader's graceful stop begins (SIGTERM) the standby
 * reconciles a change made at that moment. One fabric8 mock API server (CRUD mode, watches from
 * the requested resourceVersion) in this JVM; replicas are {@code ControllerManager}s gated by
 * {@code LeaderElection} with the default timings (lease 15 s, renew deadline 10 s, retry 2 s),
 * each with its own client, all in this JVM. Each run:
 *
 * <ol>
 *   <li>the leader's graceful stop begins (drain, release the Lease, stop informers), and at the
 *       same moment a fresh object is created;</li>
 *   <li>the clock stops when the standby's reconciler first sees that object;</li>
 *   <li>a new replica starts and becomes the standby (not timed) for the next run.</li>
 * </ol>
 *
 * <p>{@code --mode crash} instead makes the leader's Lease calls hang, as if it had died: no
 * renewal, no release. The standby can take over only once the Lease expires, lease-duration
 * after the last renewal.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.kubeloop.benchmarks.failover.FailoverBenchmark [--runs 20] [--warmup 2] [--objects 100]
 * [--mode graceful|crash]}
 */
public final class FailoverBenchmark {

    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private FailoverBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 20;
        int warmup = 2;
        int objects = 100;
        String mode = "graceful";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--objects" -> objects = Integer.parseInt(args[++i]);
                case "--mode" -> mode = args[++i];
                default -> {
                    System.err.println("usage: FailoverBenchmark [--runs 20] [--warmup 2] [--objects 100] "
                            + "[--mode graceful|crash]");
                    System.exit(2);
                }
            }
        }
        boolean crash = mode.equals("crash");
        MockApiServer api = new MockApiServer(false);
        List<Run> results = new ArrayList<>();
        try (ServerSession session = api.open("failover")) {
            session.seed(objects);
            int next = 0;
            Replica leader = Replica.start(session, "replica-" + ++next);
            leader.awaitLeading(TIMEOUT);
            Replica standby = Replica.start(session, "replica-" + ++next);
            for (int run = 1; run <= warmup + runs; run++) {
                standby.awaitStandingBy(TIMEOUT);
                String fresh = "fresh-" + run;
                Replica stopping = leader;
                long start = System.nanoTime();
                Instant startWall = Instant.now();
                CompletableFuture<Long> stopped = CompletableFuture.supplyAsync(() -> {
                    if (crash) {
                        stopping.crash();
                    } else {
                        stopping.stop();
                    }
                    return System.nanoTime();
                });
                session.client().resource(BenchObjects.create(session.namespace(), fresh)).create();
                long reconciled = standby.awaitFirstReconcile(fresh, TIMEOUT);
                long stopNanos = stopped.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                Instant acquired = standby.election().state().since();
                Run result = new Run(run, warmup, (stopNanos - start) / 1e6,
                        Duration.between(startWall, acquired).toNanos() / 1e6, (reconciled - start) / 1e6);
                System.out.printf(Locale.ROOT, "%s%n", result.row());
                if (run > warmup) {
                    results.add(result);
                }
                if (crash) {
                    stopping.stop(); // free its threads; its Lease is long gone
                }
                leader = standby;
                standby = Replica.start(session, "replica-" + ++next);
            }
            standby.stop();
            leader.stop();
        }
        print(results, mode, objects, crash);
        System.exit(0);
    }

    private static void print(List<Run> results, String mode, int objects, boolean crash) {
        System.out.println();
        System.out.printf(Locale.ROOT, "Leader failover (%s stop), %d runs, %d objects, default timings "
                + "(lease 15s, renew deadline 10s, retry period 2s)%n", mode, results.size(), objects);
        System.out.println("| | median | p90 | max |");
        System.out.println("|---|---:|---:|---:|");
        if (!crash) {
            row("stop → old leader stopped (drained, Lease released)", results.stream().map(Run::stopMs).toList());
        }
        row("stop → standby holds the Lease", results.stream().map(Run::acquiredMs).toList());
        row("stop → standby's first reconcile of the change", results.stream().map(Run::reconciledMs).toList());
    }

    private static void row(String label, List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        System.out.printf(Locale.ROOT, "| %s | %.0f ms | %.0f ms | %.0f ms |%n", label, percentile(sorted, 50),
                percentile(sorted, 90), sorted.get(sorted.size() - 1));
    }

    /** Nearest-rank percentile of sorted values. */
    private static double percentile(List<Double> sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private record Run(int number, int warmup, double stopMs, double acquiredMs, double reconciledMs) {
        String row() {
            return String.format(Locale.ROOT, "run %2d%s: stopped %6.0f ms, standby leading %6.0f ms, reconciled %6.0f ms",
                    number, number <= warmup ? " (warm-up)" : "", stopMs, acquiredMs, reconciledMs);
        }
    }
}
