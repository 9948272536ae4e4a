package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import java.lang.management.ManagementFactory;
import java.time.Instant;
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
 * and prints to its log the slowest ones, then every step of 5 ms or more in the order they began,
 * with its start in milliseconds since the JVM started (so the gaps between steps, which Spring
 * does not record, show too). Off by default: recording costs a little itself.
 */
final class StartupSteps {

    private static final int SHOWN = 25;
    private static final long TIMELINE_MIN_MICROS = 5_000;

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
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        System.err.println("Spring startup steps of 5 ms or more by start (ms since JVM start, duration ms):");
        timeline.getEvents().stream()
                .filter(event -> event.getDuration().toNanos() >= TIMELINE_MIN_MICROS * 1_000)
                .sorted(Comparator.comparing(StartupTimeline.TimelineEvent::getStartTime))
                .forEach(event -> System.err.println(String.format(Locale.ROOT, "%8d %+8.1f  %s %s",
                        sinceJvmStart(jvmStart, event.getStartTime()), event.getDuration().toNanos() / 1e6,
                        event.getStartupStep().getName(), tags(event.getStartupStep()))));
        System.err.println(String.format(Locale.ROOT, "%8d  context returned (process CPU %d ms)",
                ManagementFactory.getRuntimeMXBean().getUptime(),
                ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime() / 1_000_000));
    }

    private static long sinceJvmStart(long jvmStartMillis, Instant instant) {
        return instant.toEpochMilli() - jvmStartMillis;
    }

    private static String tags(StartupStep step) {
        return step.getTags() == null ? "" : StreamSupport.stream(step.getTags().spliterator(), false)
                .map(tag -> tag.getKey() + "=" + tag.getValue())
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
