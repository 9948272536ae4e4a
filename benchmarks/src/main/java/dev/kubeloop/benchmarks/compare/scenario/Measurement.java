package dev.kubeloop.benchmarks.compare.scenario;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one contender run measured: the scenario's main value (see {@link Scenario#metric()}),
 * objects per second and JVM CPU microseconds per object where they apply (NaN where not), and
 * secondary values shown in the table's notes.
 */
public record Measurement(double value, double objectsPerSecond, double cpuMicrosPerObject,
        Map<String, Double> extras) {

    public Measurement {
        extras = new LinkedHashMap<>(extras);
    }

    /** Secondary values in the order given: {@code notes("ready s", 1.2, "JIT s", 3.4)}. */
    public static Map<String, Double> notes(Object... namesAndValues) {
        Map<String, Double> notes = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            notes.put((String) namesAndValues[i], ((Number) namesAndValues[i + 1]).doubleValue());
        }
        return notes;
    }
}
