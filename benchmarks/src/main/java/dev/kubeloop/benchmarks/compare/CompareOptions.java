package dev.kubeloop.benchmarks.compare;

import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
import dev.kubeloop.benchmarks.compare.scenario.BurstScenario;
import dev.kubeloop.benchmarks.compare.scenario.ColdStartScenario;
import dev.kubeloop.benchmarks.compare.scenario.LatencyScenario;
import dev.kubeloop.benchmarks.compare.scenario.LaunchSettings;
import dev.kubeloop.benchmarks.compare.scenario.MemoryScenario;
import dev.kubeloop.benchmarks.compare.scenario.PriorityScenario;
import dev.kubeloop.benchmarks.compare.scenario.Scenario;
import dev.kubeloop.benchmarks.compare.scenario.StartupScenario;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The launcher's command line: {@code --key=value} flags, each with the full-size default. */
final class CompareOptions {

    static final List<String> ALL_SCENARIOS = List.of("coldstart", "burst", "latency", "priority", "memory", "startup");
    static final List<String> ALL_CONTENDERS = List.of("bound", "bound+patch", "kubeloop", "josdk", "spring-boot",
            "kubeloop+trace10", "kubeloop+trace100", "kubeloop+spring-aot", "kubeloop+metrics", "josdk+metrics");

    static final String USAGE = """
            Usage: java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.compare.CompareMain [--flag=value...]

              --scenarios=LIST        %s (default: all)
              --contenders=LIST       %s (default: all; spring-boot, the floor of a
                                      Spring Boot start, runs in the startup scenario only)
              --rounds=N              rounds; contender order rotates per round (default 3)
              --objects=N             objects in coldstart, burst, priority, memory (default 10000)
              --burst-updates=N       spec changes in burst (default 5000)
              --burst-warmups=N       unmeasured bursts of the same objects before the measured one (default 0)
              --latency-objects=N     objects in latency (default 2000)
              --latency-rate=N        spec changes per second in latency (default 200)
              --latency-warmup-seconds=N  unmeasured load at the same rate first (default 10)
              --latency-seconds=N     duration of the measured latency load (default 30)
              --workers=N             worker threads of every contender (default 4)
              --write=merge|ssa       how every writing contender writes the status: a merge patch of /status
                                      (Kubeloop: its JSON patch, updateStatus) or server-side apply (default ssa)
              --heap=SIZE             -Xms/-Xmx of every contender JVM (default 1g)
              --server=mock|kubeconfig  API server (default: kubeconfig if KUBECONFIG is set, else mock)
              --mock-watch-replay=B   keep the mock's watch, which re-sends all objects on every new watch
                                      (default false: watches start from the requested resourceVersion)
              --jfr=LIST              contenders to record with JFR into <out>/jfr (default: none)
              --cds=LIST              contenders started with a dynamic class-data-sharing archive of their
                                      own, written by an unreported 300-object cold start first (default: none)
              --aot=LIST              contenders started with an ahead-of-time cache of their own (JDK 25+:
                                      -XX:AOTCache), written by an unreported 300-object cold start first
                                      (default: none)
              --keep-archives         reuse the --cds/--aot archives an earlier invocation with the same --out
                                      wrote instead of training again (default: train every time)
              --warmup-objects=N      unreported bound+patch burst run warming the launcher first; 0: none (default 1000)
              --settle-ms=N           quiet period before reading a contender's CPU (default 1000)
              --timeout-seconds=N     longest single wait (default 600)
              --out=DIR               logs, recordings and the result table (default target/compare)
              --quick                 small sizes for a smoke run: 300 objects, 150 burst updates,
                                      latency 100 objects at 50/s for 2 + 5 s, 1 round, no warm-up run
            """.formatted(String.join(",", ALL_SCENARIOS), String.join(",", ALL_CONTENDERS));

    private final Map<String, String> values = new LinkedHashMap<>();

    private CompareOptions() {
    }

    static CompareOptions parse(String[] args) {
        CompareOptions options = new CompareOptions();
        List<String> list = new ArrayList<>(Arrays.asList(args));
        if (list.remove("--quick")) {
            options.values.putAll(Map.of("objects", "300", "burst-updates", "150", "latency-objects", "100",
                    "latency-rate", "50", "latency-warmup-seconds", "2", "latency-seconds", "5", "rounds", "1",
                    "warmup-objects", "0"));
        }
        for (String arg : list) {
            if (arg.equals("--help") || arg.equals("-h")) {
                options.values.put("help", "true");
                continue;
            }
            if (arg.equals("--keep-archives")) {
                options.values.put("keep-archives", "true");
                continue;
            }
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --flag=value, got " + arg + "\n\n" + USAGE);
            }
            String flag = arg.substring(2, eq);
            if (!USAGE.contains("--" + flag + "=")) {
                // a misspelt flag would otherwise run the full-size default it meant to change
                throw new IllegalArgumentException("unknown flag --" + flag + "\n\n" + USAGE);
            }
            options.values.put(flag, arg.substring(eq + 1));
        }
        return options;
    }

    boolean help() {
        return values.containsKey("help");
    }

    /** The flags as given (after --quick expanded), for the report. */
    Map<String, String> given() {
        return values;
    }

    List<Scenario> scenarios() {
        int objects = intValue("objects", 10_000);
        List<Scenario> scenarios = new ArrayList<>();
        for (String name : list("scenarios", ALL_SCENARIOS)) {
            scenarios.add(switch (name) {
                case "coldstart" -> new ColdStartScenario(objects);
                case "burst" -> new BurstScenario(objects, intValue("burst-updates", 5_000),
                        intValue("burst-warmups", 0));
                case "latency" -> new LatencyScenario(intValue("latency-objects", 2_000), intValue("latency-rate", 200),
                        intValue("latency-warmup-seconds", 10), intValue("latency-seconds", 30));
                case "priority" -> new PriorityScenario(objects);
                case "memory" -> new MemoryScenario(objects);
                case "startup" -> new StartupScenario();
                default -> throw new IllegalArgumentException("unknown scenario " + name + "\n\n" + USAGE);
            });
        }
        return scenarios;
    }

    List<String> contenders() {
        List<String> contenders = list("contenders", ALL_CONTENDERS);
        for (String contender : contenders) {
            if (!ALL_CONTENDERS.contains(contender)) {
                throw new IllegalArgumentException("unknown contender " + contender + "\n\n" + USAGE);
            }
        }
        return contenders;
    }

    int rounds() {
        return intValue("rounds", 3);
    }

    int warmupObjects() {
        return intValue("warmup-objects", 1_000);
    }

    boolean useKubeconfig() {
        String server = values.getOrDefault("server", System.getenv("KUBECONFIG") != null ? "kubeconfig" : "mock");
        return switch (server) {
            case "mock" -> false;
            case "kubeconfig" -> true;
            default -> throw new IllegalArgumentException("--server must be mock or kubeconfig\n\n" + USAGE);
        };
    }

    boolean keepArchives() {
        return values.containsKey("keep-archives") && !values.get("keep-archives").equals("false");
    }

    boolean mockWatchReplay() {
        return Boolean.parseBoolean(values.getOrDefault("mock-watch-replay", "false"));
    }

    Path outDir() {
        return Path.of(values.getOrDefault("out", "target/compare"));
    }

    LaunchSettings launchSettings() {
        Set<String> jfr = new LinkedHashSet<>(list("jfr", List.of()));
        Set<String> cds = new LinkedHashSet<>(list("cds", List.of()));
        Set<String> aot = new LinkedHashSet<>(list("aot", List.of()));
        if (!aot.isEmpty() && Runtime.version().feature() < 25) {
            throw new IllegalArgumentException("--aot needs JDK 25 or later (contenders run on the launcher's java, "
                    + Runtime.version() + ")\n\n" + USAGE);
        }
        for (String contender : aot) {
            if (cds.contains(contender)) {
                throw new IllegalArgumentException("--cds and --aot both name " + contender + "; a JVM uses one archive"
                        + "\n\n" + USAGE);
            }
        }
        return new LaunchSettings(values.getOrDefault("heap", "1g"), intValue("workers", 4), outDir(), jfr,
                Duration.ofSeconds(intValue("timeout-seconds", 600)), Duration.ofMillis(intValue("settle-ms", 1000)),
                cds, aot, StatusWrite.parse(values.getOrDefault("write", defaultWrite())));
    }

    /**
     * ssa, or merge when the environment still asks the Kubeloop contender for its patch write the
     * way the runs before issue 32 did ({@code BENCH_KUBELOOP_STATUS_WRITE=update}), which
     * {@code --write=merge} replaces: now every contender patches.
     */
    private static String defaultWrite() {
        return "update".equals(System.getenv("BENCH_KUBELOOP_STATUS_WRITE")) ? "merge" : "ssa";
    }

    private int intValue(String key, int defaultValue) {
        String value = values.get(key);
        return value == null ? defaultValue : Integer.parseInt(value.replace("_", "").replace(",", ""));
    }

    private List<String> list(String key, List<String> defaultValue) {
        String value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        return value.isBlank() ? List.of() : List.of(value.split(","));
    }
}
