package dev.kubeloop.benchmarks.compare;

import dev.kubeloop.benchmarks.compare.scenario.BurstScenario;
import dev.kubeloop.benchmarks.compare.scenario.ColdStartScenario;
import dev.kubeloop.benchmarks.compare.scenario.LaunchSettings;
import dev.kubeloop.benchmarks.compare.scenario.Measurement;
import dev.kubeloop.benchmarks.compare.scenario.Scenario;
import dev.kubeloop.benchmarks.compare.scenario.ScenarioContext;
import dev.kubeloop.benchmarks.compare.scenario.StartupScenario;
import dev.kubeloop.benchmarks.compare.server.ApiServer;
import dev.kubeloop.benchmarks.compare.server.KubeconfigApiServer;
import dev.kubeloop.benchmarks.compare.server.MockApiServer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The side-by-side harness: runs every scenario for every contender, round after round, each run
 * in a fresh contender JVM against a fresh API server state, and prints one table of medians,
 * spreads and ratios (also written to {@code <out>/results-<time>.md}). Progress and per-run
 * values go to stderr; contender logs to {@code <out>/logs}. Exits with 1 if any run failed.
 * See docs/performance.md.
 *
 * <pre>
 * ./mvnw -B -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.compare.CompareMain --quick
 * </pre>
 */
public final class CompareMain {

    private CompareMain() {
    }

    public static void main(String[] args) throws Exception {
        CompareOptions options = CompareOptions.parse(args);
        if (options.help()) {
            System.out.println(CompareOptions.USAGE);
            return;
        }
        List<Scenario> scenarios = options.scenarios();
        List<String> contenders = options.contenders();
        boolean failed;
        try (ApiServer server = options.useKubeconfig() ? new KubeconfigApiServer() : new MockApiServer(options.mockWatchReplay())) {
            ScenarioContext context = new ScenarioContext(server, options.launchSettings());
            warmUp(options, context);
            trainArchives(options, context);
            Results results = new Results();
            for (Scenario scenario : scenarios) {
                for (int round = 1; round <= options.rounds(); round++) {
                    for (String contender : rotated(contenders, round - 1)) {
                        if (scenario.supports(contender)) {
                            measure(scenario, contender, round, context, results);
                        }
                    }
                }
            }
            String report = header(options, server) + "\n" + ResultTable.format(results);
            System.out.println(report);
            Path file = options.outDir().resolve("results-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".md");
            Files.createDirectories(file.getParent());
            Files.writeString(file, report, StandardCharsets.UTF_8);
            System.err.println("table written to " + file);
            failed = results.hasFailures();
        }
        // a mock server whose shutdown timed out (see MockApiServer) leaves non-daemon vert.x
        // threads behind, which would keep the launcher alive after the table is out
        System.exit(failed ? 1 : 0);
    }

    /**
     * The launcher hosts the mock server; its JIT warms up over the first runs. An unreported run
     * first keeps the first measured contender from paying for that.
     */
    private static void warmUp(CompareOptions options, ScenarioContext context) throws Exception {
        int objects = options.warmupObjects();
        if (objects <= 0) {
            return;
        }
        System.err.printf("warm-up: bound+patch burst, %,d objects%n", objects);
        new BurstScenario(objects, objects / 2, 0).run("bound+patch", 0, context);
    }

    /**
     * Writes the class-data-sharing archive of each {@code --cds} contender and the ahead-of-time
     * cache of each {@code --aot} contender: a cold start of 300 objects loads the classes of
     * start-up and of the reconcile path (and, for the AOT cache, profiles their methods); the JVM
     * writes the archive at exit. The "spring-boot" contender trains on a start.
     */
    private static void trainArchives(CompareOptions options, ScenarioContext context) throws Exception {
        LaunchSettings settings = options.launchSettings();
        for (String contender : options.contenders()) {
            if (!settings.archived(contender)) {
                continue;
            }
            String kind = settings.aotContenders().contains(contender) ? "AOT cache" : "CDS archive";
            if (options.keepArchives() && Files.exists(settings.archive(contender))) {
                System.err.printf("%s of %s kept: %s%n", kind, contender, settings.archive(contender));
                continue;
            }
            Files.deleteIfExists(settings.archive(contender));
            System.err.printf("%s training run: %s%n", kind, contender);
            // the Spring Boot floor reconciles nothing: its training is a start
            Scenario training = ScenarioContext.reconciles(contender) ? new ColdStartScenario(300) : new StartupScenario();
            training.run(contender, 0, context);
            if (!Files.exists(settings.archive(contender))) {
                throw new IllegalStateException("no " + kind + " written for " + contender + " (see its r0 log)");
            }
        }
    }

    private static void measure(Scenario scenario, String contender, int round, ScenarioContext context,
            Results results) {
        try {
            double loadBefore = loadAverage();
            Measurement measurement = scenario.run(contender, round, context);
            // the machine is shared: every run says how loaded it was (1-minute load, start and end)
            measurement.extras().put("load 1m start", loadBefore);
            measurement.extras().put("load 1m end", loadAverage());
            results.add(scenario, contender, measurement);
            System.err.printf("[%s r%d] %-12s %s %s  obj/s %s  CPU µs/obj %s  %s%n", scenario.name(), round, contender,
                    scenario.metric(), ResultTable.number(measurement.value()),
                    ResultTable.number(measurement.objectsPerSecond()),
                    ResultTable.number(measurement.cpuMicrosPerObject()), measurement.extras());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            results.fail(scenario, contender, String.valueOf(e.getMessage()));
            System.err.printf("[%s r%d] %-12s FAILED: %s%n", scenario.name(), round, contender, e);
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** The contenders starting at {@code by}: each gets every position once over enough rounds. */
    static List<String> rotated(List<String> contenders, int by) {
        List<String> rotated = new ArrayList<>(contenders);
        Collections.rotate(rotated, -(by % Math.max(1, contenders.size())));
        return rotated;
    }

    private static String header(CompareOptions options, ApiServer server) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return String.format("""
                Kubeloop side-by-side comparison
                API server: %s
                machine: %d cores, %.1f GiB RAM, %s %s; java %s (%s)
                flags: %s
                status write: %s (every writing contender)
                contender JVMs: %s, G1, fresh JVM per run; workers %d
                """,
                server.description(),
                Runtime.getRuntime().availableProcessors(), os.getTotalMemorySize() / (1024.0 * 1024 * 1024),
                System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("java.runtime.version"), System.getProperty("java.vm.name"),
                options.given().isEmpty() ? "(defaults)" : options.given(), options.launchSettings().write().flag(),
                "-Xms/-Xmx " + options.launchSettings().heap(), options.launchSettings().workers());
    }
}
