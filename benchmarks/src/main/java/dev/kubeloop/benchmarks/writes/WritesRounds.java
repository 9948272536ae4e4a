package dev.kubeloop.benchmarks.writes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rounds of each scenario. Every round starts a fresh operator JVM (its counters start at 0,
 * its JIT is as cold as a user's) confined to a fresh namespace (the earlier rounds' Websites
 * stay behind: the local API server has no namespace controller or garbage collector to remove
 * them, and the operator does not see them). A phase ends when every Website converged and the
 * operator has been quiet for the settle period (no reconcile, empty queue, no worker busy), so
 * that the retries a phase causes are counted in it.
 */
final class WritesRounds {

    private final WritesOptions options;
    private final Path jar;
    private final AuditLog audit;
    private final WebsiteFleet fleet;
    /** Namespaces of earlier invocations may linger (nothing deletes them): names are unique per invocation. */
    private final String invocation = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);

    WritesRounds(WritesOptions options, Path jar, AuditLog audit, WebsiteFleet fleet) {
        this.options = options;
        this.jar = jar;
        this.audit = audit;
        this.fleet = fleet;
    }

    /**
     * demo: the sample as a new user first runs it, no cluster, its two Websites on the embedded
     * server; the operator's counts once it is quiet.
     */
    List<PhaseFigures> demo(int round) throws Exception {
        double load = load();
        MachineCpu cpu = MachineCpu.read(-1);
        try (SampleOperator operator = SampleOperator.demo(jar, options.operatorJvmArgs(), options.operatorArgs(),
                log("demo-r" + round))) {
            operator.awaitReady(options.timeout());
            OperatorMetrics after = awaitQuiet(operator, 2);
            return List.of(PhaseFigures.demo("demo: 2 Websites, embedded API server", after)
                    .machine(load, load, cpu, MachineCpu.read(operator.pid())));
        }
    }

    /** create: N Websites created at once by a running, idle operator's side. */
    List<PhaseFigures> create(int round) throws Exception {
        int objects = options.createObjects();
        double load = load();
        String namespace = namespace("create-r" + round);
        fleet.createNamespace(namespace);
        try (SampleOperator operator = startOperator(namespace, "create-r" + round);
                Convergence convergence = fleet.watch(namespace)) {
            return List.of(createPhase("create: " + String.format(Locale.ROOT, "%,d", objects) + " Websites at once",
                    namespace, names(objects), operator, convergence, load));
        }
    }

    /** burst: N Websites created (a phase of its own), then M spec changes as fast as they go. */
    List<PhaseFigures> burst(int round) throws Exception {
        int objects = options.burstObjects();
        int changes = options.burstChanges();
        double loadBeforeRound = load();
        String namespace = namespace("burst-r" + round);
        fleet.createNamespace(namespace);
        try (SampleOperator operator = startOperator(namespace, "burst-r" + round);
                Convergence convergence = fleet.watch(namespace)) {
            List<String> names = names(objects);
            PhaseFigures created = createPhase("burst: " + String.format(Locale.ROOT, "%,d", objects)
                    + " Websites created", namespace, names, operator, convergence, loadBeforeRound);

            double load = load();
            MachineCpu cpu = MachineCpu.read(operator.pid());
            OperatorMetrics before = OperatorMetrics.read(operator, options.controller());
            long position = audit == null ? 0 : audit.end();
            for (int i = 0; i < names.size(); i++) {
                // object i gets changes i, i + size, i + 2 size, ...: one generation each
                int changesOfObject = changes / names.size() + (i < changes % names.size() ? 1 : 0);
                convergence.expect(names.get(i), 1 + changesOfObject);
            }
            long start = System.nanoTime();
            fleet.change(namespace, names, changes, options.timeout());
            long issued = System.nanoTime();
            long converged = convergence.await(options.timeout());
            OperatorMetrics after = awaitQuiet(operator, 0);
            PhaseFigures changed = PhaseFigures.measure("burst: " + String.format(Locale.ROOT, "%,d", changes)
                    + " spec changes to the " + String.format(Locale.ROOT, "%,d", objects) + " Websites", changes,
                    "change", before, after, audit == null ? null : audit.since(position),
                    seconds(start, converged), seconds(start, issued))
                    .machine(loadBeforeRound, load, cpu, MachineCpu.read(operator.pid()));
            return List.of(created, changed);
        }
    }

    private PhaseFigures createPhase(String phase, String namespace, List<String> names, SampleOperator operator,
            Convergence convergence, double loadBeforeRound) throws Exception {
        double load = load();
        MachineCpu cpu = MachineCpu.read(operator.pid());
        OperatorMetrics before = OperatorMetrics.read(operator, options.controller());
        long position = audit == null ? 0 : audit.end();
        names.forEach(name -> convergence.expect(name, 1));
        long start = System.nanoTime();
        fleet.create(namespace, names, options.timeout());
        long issued = System.nanoTime();
        long converged = convergence.await(options.timeout());
        OperatorMetrics after = awaitQuiet(operator, 0);
        return PhaseFigures.measure(phase, names.size(), "object", before, after,
                audit == null ? null : audit.since(position), seconds(start, converged), seconds(start, issued))
                .machine(loadBeforeRound, load, cpu, MachineCpu.read(operator.pid()));
    }

    private SampleOperator startOperator(String namespace, String run) throws Exception {
        SampleOperator operator = SampleOperator.againstCluster(jar, kubeconfig(), namespace,
                options.operatorJvmArgs(), options.operatorArgs(), log(run));
        try {
            operator.awaitReady(options.timeout());
            return operator;
        } catch (RuntimeException | InterruptedException e) {
            operator.close();
            throw e;
        }
    }

    /**
     * Waits until the operator has done at least {@code minReconciles} and then nothing for the
     * settle period: the reconcile count still, the queue empty and no worker busy. A key waiting
     * out a backoff longer than the settle period is not in the queue's depth; the settle period
     * is longer than the first retries' backoff.
     */
    private OperatorMetrics awaitQuiet(SampleOperator operator, double minReconciles) throws Exception {
        long deadline = System.nanoTime() + options.timeout().toNanos();
        OperatorMetrics last = OperatorMetrics.read(operator, options.controller());
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(250);
            OperatorMetrics now = OperatorMetrics.read(operator, options.controller());
            boolean idle = now.queueDepth() == 0 && now.activeWorkers() == 0 && now.reconciles() >= minReconciles;
            if (!idle || now.reconciles() != last.reconciles()) {
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= options.settle().toNanos()) {
                return now;
            }
            last = now;
        }
        throw new IllegalStateException("the operator did not settle within " + options.timeout() + " (log: "
                + operator.log() + ")");
    }

    private String namespace(String run) {
        return ("writes-" + invocation + "-" + run).toLowerCase(Locale.ROOT);
    }

    private Path log(String run) {
        return options.outDir().resolve("logs").resolve(invocation + "-" + run + ".log");
    }

    private static List<String> names(int count) {
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(String.format(Locale.ROOT, "site-%04d", i));
        }
        return names;
    }

    private static Path kubeconfig() {
        String kubeconfig = System.getenv("KUBECONFIG");
        if (kubeconfig == null || !Files.isRegularFile(Path.of(kubeconfig))) {
            throw new IllegalStateException("set KUBECONFIG to the API server under test "
                    + "(KUBECONFIG=$(bash scripts/local-apiserver.sh kubeconfig))");
        }
        return Path.of(kubeconfig);
    }

    private static double seconds(long fromNanos, long toNanos) {
        return Math.max(0, toNanos - fromNanos) / 1e9;
    }

    /** The 1-minute load average, reported with every phase: the machine is shared. */
    static double load() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
