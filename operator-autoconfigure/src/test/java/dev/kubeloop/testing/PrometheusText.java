package dev.kubeloop.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Prometheus text exposition format, parsed just enough for assertions: samples (name, labels,
 * value) and each family's {@code # TYPE}. Immutable.
 */
public final class PrometheusText {

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;
    private final Map<String, String> types;

    private PrometheusText(List<Sample> samples, Map<String, String> types) {
        this.samples = List.copyOf(samples);
        this.types = Collections.unmodifiableMap(types);
    }

    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring("# TYPE ".length()).trim().split(" ");
                types.put(parts[0], parts[1]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                samples.add(sample(line.trim()));
            }
        }
        return new PrometheusText(samples, types);
    }

    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space = line.lastIndexOf(' ');
        Map<String, String> labels = new TreeMap<>();
        String name;
        if (brace >= 0 && brace < space) {
            name = line.substring(0, brace);
            int close = line.lastIndexOf('}');
            String body = line.substring(brace + 1, close);
            int i = 0;
            while (i < body.length()) {
                int eq = body.indexOf('=', i);
                String key = body.substring(i, eq).trim();
                int start = body.indexOf('"', eq) + 1;
                StringBuilder value = new StringBuilder();
                int j = start;
                while (body.charAt(j) != '"') {
                    if (body.charAt(j) == '\\') {
                        j++;
                    }
                    value.append(body.charAt(j));
                    j++;
                }
                labels.put(key, value.toString());
                i = j + 1;
                if (i < body.length() && body.charAt(i) == ',') {
                    i++;
                }
            }
            space = line.indexOf(' ', close);
        } else {
            name = line.substring(0, line.indexOf(' '));
            space = line.indexOf(' ');
        }
        String[] rest = line.substring(space + 1).trim().split(" ");
        return new Sample(name, labels, Double.parseDouble(rest[0]));
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The samples of metric {@code name} whose labels include all of {@code labels} (key, value, ...). */
    public List<Sample> samples(String name, String... labels) {
        Map<String, String> wanted = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.stream().filter(s -> s.name().equals(name))
                .filter(s -> s.labels().entrySet().containsAll(wanted.entrySet())).toList();
    }

    /** The value of the one sample of {@code name} with exactly these labels. */
    public Optional<Double> value(String name, String... labels) {
        Map<String, String> wanted = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(wanted))
                .map(Sample::value).findFirst();
    }

    /** The {@code # TYPE} of a metric family. */
    public Optional<String> type(String family) {
        return Optional.ofNullable(types.get(family));
    }
}
