package dev.kubeloop.benchmarks.compare.contender;

import java.util.HashMap;
import java.util.Map;

/**
 * The command line of a contender process, written by the launcher.
 *
 * @param contender which framework to run (bound, bound+patch, kubeloop, josdk)
 * @param masterUrl the API server's URL, or null to use the kubeconfig ({@code KUBECONFIG})
 * @param namespace the namespace holding the benchmark's objects
 * @param workers worker threads (reconciles at once)
 * @param track whether the probe records which object generations were seen
 * @param awaitInitial if positive, report SEEN (id "initial") once that many objects were seen
 * @param write how the status is written ({@link StatusWrite})
 */
public record ContenderOptions(String contender, String masterUrl, String namespace, int workers, boolean track,
        int awaitInitial, StatusWrite write) {

    public static ContenderOptions parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --key=value, got " + arg);
            }
            int eq = arg.indexOf('=');
            values.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        return new ContenderOptions(
                require(values, "contender"),
                values.get("master"),
                require(values, "namespace"),
                Integer.parseInt(values.getOrDefault("workers", "4")),
                Boolean.parseBoolean(values.getOrDefault("track", "true")),
                Integer.parseInt(values.getOrDefault("await-initial", "0")),
                StatusWrite.parse(values.getOrDefault("write", "ssa")));
    }

    private static String require(Map<String, String> values, String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + key + "=...");
        }
        return value;
    }
}
