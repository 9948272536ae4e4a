package dev.kubeloop.benchmarks.compare;

import dev.kubeloop.benchmarks.compare.scenario.Measurement;
import dev.kubeloop.benchmarks.compare.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every round's measurement (or failure) per scenario and contender, in the order they were run. */
final class Results {

    /** One scenario's runs for one contender. */
    static final class Runs {
        final List<Measurement> measurements = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
    }

    private final Map<Scenario, Map<String, Runs>> runs = new LinkedHashMap<>();

    void add(Scenario scenario, String contender, Measurement measurement) {
        runs(scenario, contender).measurements.add(measurement);
    }

    void fail(Scenario scenario, String contender, String reason) {
        runs(scenario, contender).failures.add(reason);
    }

    boolean hasFailures() {
        return runs.values().stream().flatMap(byContender -> byContender.values().stream())
                .anyMatch(contenderRuns -> !contenderRuns.failures.isEmpty());
    }

    Map<Scenario, Map<String, Runs>> all() {
        return runs;
    }

    private Runs runs(Scenario scenario, String contender) {
        return runs.computeIfAbsent(scenario, s -> new LinkedHashMap<>()).computeIfAbsent(contender, c -> new Runs());
    }

    /** The median of the values (mean of the middle two for an even count); NaN values are skipped. */
    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>();
        for (double value : values) {
            if (!Double.isNaN(value)) {
                sorted.add(value);
            }
        }
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        sorted.sort(null);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
