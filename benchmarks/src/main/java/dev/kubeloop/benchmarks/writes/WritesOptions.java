package dev.kubeloop.benchmarks.writes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The command line of {@link WritesBurstMain}: {@code --key=value} flags, each with the size as default. */
final class WritesOptions {

    static final List<String> ALL_SCENARIOS = List.of("demo", "create", "burst");

    static final String USAGE = """
            Usage: KUBECONFIG=... java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.writes.WritesBurstMain [--flag=value...]

              --scenarios=LIST        %s (default: all; demo needs no KUBECONFIG)
              --rounds=N              rounds per scenario, each with a fresh operator JVM and namespace (default 3)
              --create-objects=N      Websites created at once in create (default 300)
              --burst-objects=N       Websites created first in burst (default 500)
              --burst-changes=N       spec changes (page edits) in burst, round robin over the objects (default 2000)
              --parallel=N            requests the harness keeps in flight when creating and changing (default 8)
              --jar=PATH              the sample operator's Spring Boot jar (default sample-operator/target/kubeloop-sample-operator-*-demo.jar)
              --operator-jvm-args=S   JVM flags of the operator, space-separated (default "-Xms512m -Xmx512m -XX:+UseG1GC")
              --operator-args=S       more application arguments, space-separated (e.g. --kubeloop.reconcilers.website.workers=4)
              --controller=NAME       the reconciler whose metrics are read (default website)
              --audit-log=PATH        the kube-apiserver's audit log (default: what scripts/local-apiserver.sh audit-log prints;
                                      none: the audit columns are left out)
              --quiet-load=X          before each round, wait until the 1-minute load average is below X (default 0: do not wait)
              --quiet-wait-seconds=N  longest such wait; the round then runs anyway, its load reported (default 900)
              --settle-seconds=N      quiet period (no reconcile, empty queue) that ends a phase (default 3)
              --timeout-seconds=N     longest single wait (default 600)
              --out=DIR               logs and the result table (default target/writes)
              --quick                 a smoke run: 1 round, 30 objects created, burst 50 objects and 200 changes
            """.formatted(String.join(",", ALL_SCENARIOS));

    private final Map<String, String> values = new LinkedHashMap<>();

    private WritesOptions() {
    }

    static WritesOptions parse(String[] args) {
        WritesOptions options = new WritesOptions();
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                options.values.put("help", "true");
            } else if (arg.equals("--quick")) {
                options.values.putAll(Map.of("rounds", "1", "create-objects", "30", "burst-objects", "50",
                        "burst-changes", "200"));
            } else {
                int eq = arg.indexOf('=');
                if (!arg.startsWith("--") || eq < 0) {
                    throw new IllegalArgumentException("expected --flag=value, got " + arg + "\n\n" + USAGE);
                }
                options.values.put(arg.substring(2, eq), arg.substring(eq + 1));
            }
        }
        return options;
    }

    boolean help() {
        return values.containsKey("help");
    }

    /** The flags as given, for the report. */
    Map<String, String> given() {
        return values;
    }

    List<String> scenarios() {
        List<String> scenarios = List.of(values.getOrDefault("scenarios", String.join(",", ALL_SCENARIOS)).split(","));
        for (String scenario : scenarios) {
            if (!ALL_SCENARIOS.contains(scenario)) {
                throw new IllegalArgumentException("unknown scenario " + scenario + "\n\n" + USAGE);
            }
        }
        return scenarios;
    }

    int rounds() {
        return intValue("rounds", 3);
    }

    int createObjects() {
        return intValue("create-objects", 300);
    }

    int burstObjects() {
        return intValue("burst-objects", 500);
    }

    int burstChanges() {
        return intValue("burst-changes", 2_000);
    }

    int parallel() {
        return intValue("parallel", 8);
    }

    String controller() {
        return values.getOrDefault("controller", "website");
    }

    Duration settle() {
        return Duration.ofSeconds(intValue("settle-seconds", 3));
    }

    double quietLoad() {
        return Double.parseDouble(values.getOrDefault("quiet-load", "0"));
    }

    Duration quietWait() {
        return Duration.ofSeconds(intValue("quiet-wait-seconds", 900));
    }

    Duration timeout() {
        return Duration.ofSeconds(intValue("timeout-seconds", 600));
    }

    Path outDir() {
        return Path.of(values.getOrDefault("out", "target/writes"));
    }

    List<String> operatorJvmArgs() {
        return words(values.getOrDefault("operator-jvm-args", "-Xms512m -Xmx512m -XX:+UseG1GC"));
    }

    List<String> operatorArgs() {
        return words(values.getOrDefault("operator-args", ""));
    }

    Path jar() throws IOException {
        String given = values.get("jar");
        if (given != null) {
            return Path.of(given);
        }
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(Path.of("sample-operator/target"),
                "kubeloop-sample-operator-*-demo.jar")) { // the jar that also runs in demo mode
            jars.forEach(found::add);
        } catch (IOException e) {
            throw new IllegalStateException("no sample-operator/target: build it first (./mvnw -B -pl sample-operator,"
                    + "benchmarks -am package -DskipTests) or pass --jar", e);
        }
        if (found.size() != 1) {
            throw new IllegalStateException("expected one sample operator jar in sample-operator/target, found " + found
                    + "; pass --jar");
        }
        return found.get(0);
    }

    /**
     * The audit log: the flag, else what the local API server script reports (it fails when the
     * server was started without {@code --audit}), else none.
     */
    Path auditLog() {
        String given = values.get("audit-log");
        if (given != null) {
            return given.isBlank() || given.equals("none") ? null : Path.of(given);
        }
        Path script = Path.of("scripts/local-apiserver.sh");
        if (!Files.isRegularFile(script)) {
            return null;
        }
        try {
            Process process = new ProcessBuilder("bash", script.toString(), "audit-log")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0 && !out.isEmpty() ? Path.of(out)
                    : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private int intValue(String key, int defaultValue) {
        String value = values.get(key);
        return value == null ? defaultValue : Integer.parseInt(value.replace("_", "").replace(",", ""));
    }

    private static List<String> words(String value) {
        return value.isBlank() ? List.of() : List.of(value.trim().split("\\s+"));
    }
}
