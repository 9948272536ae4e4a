package dev.kubeloop.benchmarks.writes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the operator says about itself at one moment: every series of {@code /actuator/prometheus}
 * and the numbers in its controller's entry of {@code /actuator/kubeloop}. Phases are measured as
 * the difference of two snapshots.
 *
 * <p>Besides the reconcile counters every version has, it keeps whatever {@code kubeloop_*} series
 * (other than the informer gauges) and per-controller endpoint figures the operator exposes, so
 * that metrics added later (writes, stale reads avoided, cache lag) show up in the table without a
 * change here, and their absence is no error.
 */
final class OperatorMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Parts of a controller's endpoint entry that are configuration or lists, not figures of its work. */
    private static final Set<String> ENDPOINT_SECTIONS_SKIPPED = Set.of("resource", "scope", "owns", "watches",
            "workers", "queue", "inFlight", "lastErrors", "informers", "lastSuccess", "optional", "started");

    private final String controller;
    private final Map<String, Double> series;
    private final Map<String, Double> endpoint;

    private OperatorMetrics(String controller, Map<String, Double> series, Map<String, Double> endpoint) {
        this.controller = controller;
        this.series = series;
        this.endpoint = endpoint;
    }

    static OperatorMetrics read(SampleOperator operator, String controller) throws IOException, InterruptedException {
        Map<String, Double> series = parsePrometheus(operator.get("prometheus"));
        Map<String, Double> endpoint = new TreeMap<>();
        JsonNode entry = JSON.readTree(operator.get("kubeloop")).path("controllers").path(controller);
        for (Map.Entry<String, JsonNode> field : entry.properties()) {
            if (!ENDPOINT_SECTIONS_SKIPPED.contains(field.getKey())) {
                flatten(field.getKey(), field.getValue(), endpoint);
            }
        }
        return new OperatorMetrics(controller, series, endpoint);
    }

    /** {@code name{labels} value} lines of the Prometheus text format; comments skipped. */
    static Map<String, Double> parsePrometheus(String text) {
        Map<String, Double> series = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            try {
                series.put(line.substring(0, space).trim(), Double.parseDouble(line.substring(space + 1)));
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                // a line of a format this reader does not know: not a figure we need
            }
        }
        return series;
    }

    private static void flatten(String path, JsonNode node, Map<String, Double> into) {
        if (node.isNumber()) {
            into.put(path, node.asDouble());
        } else if (node.isObject()) {
            node.properties().forEach(field -> flatten(path + "." + field.getKey(), field.getValue(), into));
        }
    }

    /** Processed keys, every result. */
    double reconciles() {
        return sum("controller_runtime_reconcile_total");
    }

    /** Processed keys by {@code result} label. */
    Map<String, Double> reconcilesByResult() {
        Map<String, Double> byResult = new TreeMap<>();
        series.forEach((key, value) -> {
            if (name(key).equals("controller_runtime_reconcile_total") && ofController(key)) {
                byResult.merge(label(key, "result"), value, Double::sum);
            }
        });
        return byResult;
    }

    /** Reconciles that ended in a 409, as the operator counts them ({@code /actuator/kubeloop}); NaN if not shown. */
    double conflicts() {
        return endpoint.getOrDefault("reconciles.conflict", Double.NaN);
    }

    double queueDepth() {
        return sum("workqueue_depth");
    }

    double activeWorkers() {
        return sum("controller_runtime_active_workers");
    }

    /** The operator JVM's CPU time (Micrometer's {@code process.cpu.time}); NaN if not exported. */
    double cpuSeconds() {
        Double nanos = series.get("process_cpu_time_ns_total");
        return nanos == null ? Double.NaN : nanos / 1e9;
    }

    /**
     * The figures this harness does not know by name, from {@code before} to this snapshot:
     * {@code kubeloop_*} series other than the informers' and histogram buckets (counters, histogram counts and sums as
     * the change over the phase, gauges as their value at its end) and the numbers of the
     * controller's endpoint entry besides its outcome counts (as the change).
     */
    Map<String, Double> extrasSince(OperatorMetrics before) {
        Map<String, Double> extras = new LinkedHashMap<>();
        series.forEach((key, value) -> {
            String name = name(key);
            // a histogram's buckets would be dozens of rows; its count, sum and max say enough here
            if (!name.startsWith("kubeloop_") || name.startsWith("kubeloop_informer_") || name.endsWith("_bucket")
                    || (key.contains("controller=") && !ofController(key))) {
                return;
            }
            if (name.endsWith("_total") || name.endsWith("_count") || name.endsWith("_sum")) {
                extras.put("Δ " + key, value - before.series.getOrDefault(key, 0.0));
            } else {
                extras.put(key + " (at end)", value);
            }
        });
        endpoint.forEach((path, value) -> {
            if (!path.startsWith("reconciles.")) {
                extras.put("Δ /actuator/kubeloop " + controller + "." + path,
                        value - before.endpoint.getOrDefault(path, 0.0));
            }
        });
        return extras;
    }

    private double sum(String name) {
        double total = 0;
        for (Map.Entry<String, Double> entry : series.entrySet()) {
            if (name(entry.getKey()).equals(name) && ofController(entry.getKey())) {
                total += entry.getValue();
            }
        }
        return total;
    }

    private boolean ofController(String key) {
        return key.contains("controller=\"" + controller + "\"");
    }

    private static String name(String key) {
        int brace = key.indexOf('{');
        return brace < 0 ? key : key.substring(0, brace);
    }

    private static String label(String key, String label) {
        int start = key.indexOf(label + "=\"");
        if (start < 0) {
            return "";
        }
        start += label.length() + 2;
        return key.substring(start, key.indexOf('"', start));
    }
}
