package dev.kubeloop.benchmarks.writes;

import dev.kubeloop.benchmarks.compare.ResultTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One Markdown table per phase: a row per figure, its min–max over the rounds, then every round's
 * value ("–" where a round did not have the figure, e.g. no 409 of that kind). Failed rounds are
 * listed under their phase.
 */
final class WritesTable {

    private final Map<String, List<PhaseFigures>> byPhase = new LinkedHashMap<>();
    private final Map<String, List<String>> failures = new LinkedHashMap<>();

    void add(PhaseFigures figures) {
        byPhase.computeIfAbsent(figures.phase(), phase -> new ArrayList<>()).add(figures);
    }

    void fail(String phase, String why) {
        failures.computeIfAbsent(phase, p -> new ArrayList<>()).add(why);
        byPhase.computeIfAbsent(phase, p -> new ArrayList<>());
    }

    boolean hasFailures() {
        return !failures.isEmpty();
    }

    String format() {
        StringBuilder out = new StringBuilder();
        byPhase.forEach((phase, rounds) -> {
            out.append("### ").append(phase).append("\n\n");
            List<String> names = rowOrder(rounds);
            if (!rounds.isEmpty()) {
                out.append("| figure | min–max |");
                for (int i = 1; i <= rounds.size(); i++) {
                    out.append(" r").append(i).append(" |");
                }
                out.append("\n|---|---:|").append("---:|".repeat(rounds.size())).append('\n');
                for (String name : names) {
                    out.append("| ").append(name).append(" | ").append(range(rounds, name)).append(" |");
                    for (PhaseFigures round : rounds) {
                        out.append(' ').append(number(round.rows().getOrDefault(name, Double.NaN))).append(" |");
                    }
                    out.append('\n');
                }
            }
            for (String failure : failures.getOrDefault(phase, List.of())) {
                out.append("\nFAILED round: ").append(failure).append('\n');
            }
            out.append('\n');
        });
        return out.toString();
    }

    /**
     * Every round's rows in the rounds' order: a row only some rounds have (a kind of 409 that
     * happened in one round) goes right after the row it followed in the first round that has it.
     */
    private static List<String> rowOrder(List<PhaseFigures> rounds) {
        List<String> names = new ArrayList<>();
        for (PhaseFigures round : rounds) {
            int after = -1;
            for (String name : round.rows().keySet()) {
                int at = names.indexOf(name);
                if (at < 0) {
                    at = after + 1;
                    names.add(at, name);
                }
                after = at;
            }
        }
        return names;
    }

    private static String range(List<PhaseFigures> rounds, String name) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (PhaseFigures round : rounds) {
            double value = round.rows().getOrDefault(name, Double.NaN);
            if (!Double.isNaN(value)) {
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
        }
        if (min > max) {
            return "–";
        }
        String low = number(min);
        String high = number(max);
        return low.equals(high) ? low : low + "–" + high;
    }

    /** Whole numbers as such (counts), else three significant digits or so. */
    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "–";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) value);
        }
        return ResultTable.number(value);
    }
}
