package dev.kubeloop.benchmarks.writes;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The writes harness of issue 17: how many reconciles, conflicts and writes the sample operator
 * needs for Websites created at once and for a burst of spec changes, against a real API server,
 * counted by the operator ({@code /actuator/prometheus}, {@code /actuator/kubeloop}) and by the
 * server (its audit log, {@code scripts/local-apiserver.sh start --audit}); and the fresh demo's
 * reconciles and conflicts. The operator is the sample's own Spring Boot jar in a JVM of its own,
 * as users run it. Prints one table per phase (min–max and every round; also written to
 * {@code <out>/results-<time>.md}); progress to stderr, operator logs to {@code <out>/logs}.
 * A benchmark: nothing is asserted. See docs/performance.md.
 *
 * <pre>
 * ./mvnw -B -pl sample-operator,benchmarks -am package -DskipTests
 * bash scripts/local-apiserver.sh start --audit
 * KUBECONFIG=$(bash scripts/local-apiserver.sh kubeconfig) \
 *     java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.writes.WritesBurstMain
 * </pre>
 */
public final class WritesBurstMain {

    private WritesBurstMain() {
    }

    public static void main(String[] args) throws Exception {
        WritesOptions options = WritesOptions.parse(args);
        if (options.help()) {
            System.out.println(WritesOptions.USAGE);
            return;
        }
        List<String> scenarios = options.scenarios();
        boolean cluster = scenarios.stream().anyMatch(scenario -> !scenario.equals("demo"));
        Path jar = options.jar();
        Path auditFile = cluster ? options.auditLog() : null;
        AuditLog audit = auditFile == null ? null : new AuditLog(auditFile);
        if (cluster && audit == null) {
            System.err.println("no audit log (start the API server with --audit, or pass --audit-log): "
                    + "the server's counts are left out");
        }
        WritesTable table = new WritesTable();
        String server = "none (demo only)";
        try (WebsiteFleet fleet = cluster ? new WebsiteFleet(jar, options.parallel()) : null) {
            if (fleet != null) {
                server = fleet.masterUrl();
            }
            WritesRounds rounds = new WritesRounds(options, jar, audit, fleet);
            for (String scenario : scenarios) {
                for (int round = 1; round <= options.rounds(); round++) {
                    awaitQuietMachine(options);
                    System.err.printf("[%s r%d] load %.2f%n", scenario, round, WritesRounds.load());
                    try {
                        List<PhaseFigures> phases = switch (scenario) {
                            case "demo" -> rounds.demo(round);
                            case "create" -> rounds.create(round);
                            case "burst" -> rounds.burst(round);
                            default -> throw new IllegalArgumentException(scenario);
                        };
                        for (PhaseFigures phase : phases) {
                            table.add(phase);
                            System.err.printf("[%s r%d] %s: %s%n", scenario, round, phase.phase(), phase.rows());
                        }
                    } catch (Exception e) {
                        if (e instanceof InterruptedException) {
                            throw e;
                        }
                        table.fail(scenario, "round " + round + ": " + e);
                        System.err.printf("[%s r%d] FAILED: %s%n", scenario, round, e);
                    }
                }
            }
        }
        String report = header(options, jar, server, auditFile) + "\n" + table.format();
        System.out.println(report);
        Path file = options.outDir().resolve("results-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, report, StandardCharsets.UTF_8);
        System.err.println("table written to " + file);
        // fabric8's vert.x threads may outlive the client for a while
        System.exit(table.hasFailures() ? 1 : 0);
    }

    /**
     * The machine is shared: waits (up to --quiet-wait-seconds) for the 1-minute load to drop below
     * --quiet-load, so that rounds start on a machine as quiet as it gets. Our own previous round
     * counts too: the average takes a minute or two to decay after one.
     */
    private static void awaitQuietMachine(WritesOptions options) throws InterruptedException {
        if (options.quietLoad() <= 0) {
            return;
        }
        long deadline = System.nanoTime() + options.quietWait().toNanos();
        while (WritesRounds.load() >= options.quietLoad() && System.nanoTime() < deadline) {
            Thread.sleep(5_000);
        }
    }

    private static String header(WritesOptions options, Path jar, String server, Path audit) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return String.format("""
                Kubeloop writes harness (issue 17)
                commit: %s
                operator code (last commit touching operator-autoconfigure, operator-starter, sample-operator): %s
                operator: %s, JVM %s %s
                API server: %s; audit log: %s
                machine: %d cores, %.1f GiB RAM, %s %s; java %s
                flags: %s
                """,
                commit(), operatorCodeCommit(), jar, options.operatorJvmArgs(), options.operatorArgs(), server,
                audit == null ? "none" : audit,
                Runtime.getRuntime().availableProcessors(), os.getTotalMemorySize() / (1024.0 * 1024 * 1024),
                System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("java.runtime.version"),
                options.given().isEmpty() ? "(defaults)" : options.given());
    }

    /** The checkout's commit, "+ changes" when the tree is not clean: which code was measured. */
    private static String commit() {
        try {
            String head = run("git", "rev-parse", "HEAD");
            String status = run("git", "status", "--porcelain", "--untracked-files=no");
            return head + (status.isEmpty() ? "" : " + uncommitted changes");
        } catch (Exception e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /** The harness's own commits do not change what is measured: this names the code that is. */
    private static String operatorCodeCommit() {
        try {
            return run("git", "log", "-1", "--format=%H (%cs)", "--", "operator-autoconfigure", "operator-starter",
                    "sample-operator");
        } catch (Exception e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed");
        }
        return out;
    }
}
