package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.core.metrics.StartupStep;

/**
 * A diagnostic for the startup scenario: with {@code BENCH_STARTUP_STEPS=1} in the environment
 * (contender JVMs inherit the launcher's), the Kubeloop contender records Spring's startup steps
 * and prints the slowest ones to its log. Off by default: recording costs a little itself.
 */
final class StartupSteps {

    private static final int SHOWN = 25;

    private StartupSteps() {
    }

    static BufferingApplicationStartup recorderIfEnabled() {
        return System.getenv("BENCH_STARTUP_STEPS") == null ? null : new BufferingApplicationStartup(20_000);
    }

    static void print(BufferingApplicationStartup recorder) {
        StartupTimeline timeline = recorder.getBufferedTimeline();
        System.err.println("slowest Spring startup steps (ms, nested steps are included in their parents):");
        timeline.getEvents().stream()
                .sorted(Comparator.comparing(StartupTimeline.TimelineEvent::getDuration).reversed())
                .limit(SHOWN)
                .forEach(event -> System.err.println(String.format(Locale.ROOT, "%8.1f  %s %s",
                        event.getDuration().toNanos() / 1e6, event.getStartupStep().getName(), tags(event.getStartupStep()))));
    }

    private static String tags(StartupStep step) {
        return step.getTags() == null ? "" : StreamSupport.stream(step.getTags().spliterator(), false)
                .map(tag -> tag.getKey() + "=" + tag.getValue())
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
