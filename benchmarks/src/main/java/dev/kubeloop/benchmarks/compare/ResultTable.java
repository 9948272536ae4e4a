package dev.kubeloop.benchmarks.compare;

import dev.kubeloop.benchmarks.compare.scenario.Measurement;
import dev.kubeloop.benchmarks.compare.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The one table the launcher prints (Markdown, so it can be pasted into docs/performance.md): per
 * scenario and contender the median of the rounds and their spread, objects per second and CPU
 * per object, and the ratios to bound+patch and to josdk ("value / CPU"; lower is better for
 * every metric).
 */
public final class ResultTable {

    private static final String BASELINE = "bound+patch";
    private static final String INCUMBENT = "josdk";

    private ResultTable() {
    }

    static String format(Results results) {
        StringBuilder table = new StringBuilder();
        table.append("| scenario | contender | metric | median | min–max | obj/s | CPU µs/obj | ×bound+patch | ×josdk | notes |\n");
        table.append("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (Map.Entry<Scenario, Map<String, Results.Runs>> scenario : results.all().entrySet()) {
            Map<String, Results.Runs> byContender = scenario.getValue();
            for (Map.Entry<String, Results.Runs> contender : byContender.entrySet()) {
                table.append(row(scenario.getKey(), contender.getKey(), contender.getValue(), byContender));
            }
        }
        return table.toString();
    }

    private static String row(Scenario scenario, String contender, Results.Runs runs,
            Map<String, Results.Runs> byContender) {
        List<Measurement> measurements = runs.measurements;
        String failures = runs.failures.isEmpty() ? ""
                : runs.failures.size() + " failed: " + runs.failures.get(0).replace('|', '/');
        if (measurements.isEmpty()) {
            return "| " + scenario.name() + " | " + contender + " | " + scenario.metric() + " | – | – | – | – | – | – | "
                    + failures + " |\n";
        }
        double value = median(measurements, Measurement::value);
        double cpu = median(measurements, Measurement::cpuMicrosPerObject);
        List<String> notes = new ArrayList<>();
        measurements.get(0).extras().keySet().forEach(key -> notes.add(key + " " + number(
                median(measurements, m -> m.extras().getOrDefault(key, Double.NaN)))));
        notes.add("n=" + measurements.size());
        if (!failures.isEmpty()) {
            notes.add(failures);
        }
        return "| " + scenario.name()
                + " | " + contender
                + " | " + scenario.metric()
                + " | " + number(value)
                + " | " + number(min(measurements)) + "–" + number(max(measurements))
                + " | " + number(median(measurements, Measurement::objectsPerSecond))
                + " | " + number(cpu)
                + " | " + ratio(value, cpu, byContender.get(BASELINE))
                + " | " + ratio(value, cpu, byContender.get(INCUMBENT))
                + " | " + String.join("; ", notes)
                + " |\n";
    }

    private static String ratio(double value, double cpu, Results.Runs reference) {
        if (reference == null || reference.measurements.isEmpty()) {
            return "–";
        }
        double valueRatio = value / median(reference.measurements, Measurement::value);
        double cpuRatio = cpu / median(reference.measurements, Measurement::cpuMicrosPerObject);
        return Double.isNaN(cpuRatio) ? twoDecimals(valueRatio) : twoDecimals(valueRatio) + " / " + twoDecimals(cpuRatio);
    }

    private static double median(List<Measurement> measurements, ToDoubleFunction<Measurement> metric) {
        List<Double> values = new ArrayList<>();
        measurements.forEach(m -> values.add(metric.applyAsDouble(m)));
        return Results.median(values);
    }

    private static double min(List<Measurement> measurements) {
        return measurements.stream().mapToDouble(Measurement::value).min().orElse(Double.NaN);
    }

    private static double max(List<Measurement> measurements) {
        return measurements.stream().mapToDouble(Measurement::value).max().orElse(Double.NaN);
    }

    private static String twoDecimals(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "–" : String.format(Locale.ROOT, "%.2f", value);
    }

    /** Three significant digits or so, with thousands separators for big numbers (every harness's tables). */
    public static String number(double value) {
        if (Double.isNaN(value)) {
            return "–";
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
