package dev.kubeloop.benchmarks.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a contender's CPU went, from a JFR recording made with {@code --jfr=<contender>}: the
 * execution samples attributed to the library that was running (the first frame outside the JDK,
 * counting from the top of the stack, so a HashMap lookup inside Jackson counts as Jackson), by
 * thread, and the hottest methods; and where it allocated: the sampled allocation weight
 * ({@code jdk.ObjectAllocationSample}, bytes) by library and by framework method on the stack.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.compare.JfrBreakdown target/compare/jfr/coldstart-kubeloop-r1.jfr</pre>
 *
 * <p>{@code --from=<instant> --to=<instant>} (ISO-8601, as the burst scenario logs its span) keeps
 * only the events that started inside that span, so a burst in a warm JVM is read without the
 * cold start before it; the span's garbage-collection pauses are then printed too.
 */
public final class JfrBreakdown {

    /** Package prefixes to the library name shown, first match wins. */
    private static final Map<String, String> LIBRARIES = new LinkedHashMap<>();

    static {
        LIBRARIES.put("dev.kubeloop.benchmarks.", "benchmark harness");
        LIBRARIES.put("dev.kubeloop.", "kubeloop runtime");
        LIBRARIES.put("io.javaoperatorsdk.", "josdk");
        LIBRARIES.put("com.fasterxml.jackson.", "jackson (JSON)");
        LIBRARIES.put("io.fabric8.kubernetes.client.", "fabric8 client");
        LIBRARIES.put("io.fabric8.kubernetes.api.", "fabric8 model");
        LIBRARIES.put("io.fabric8.", "fabric8 other");
        LIBRARIES.put("io.vertx.", "vert.x + netty (HTTP)");
        LIBRARIES.put("io.netty.", "vert.x + netty (HTTP)");
        LIBRARIES.put("org.springframework.", "spring");
        LIBRARIES.put("ch.qos.logback.", "logging");
        LIBRARIES.put("org.slf4j.", "logging");
    }

    private JfrBreakdown() {
    }

    public static void main(String[] args) throws IOException {
        Instant from = Instant.MIN;
        Instant to = Instant.MAX;
        List<String> files = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--from=")) {
                from = Instant.parse(arg.substring("--from=".length()));
            } else if (arg.startsWith("--to=")) {
                to = Instant.parse(arg.substring("--to=".length()));
            } else {
                files.add(arg);
            }
        }
        boolean span = !from.equals(Instant.MIN) || !to.equals(Instant.MAX);
        if (files.isEmpty() || (span && (from.equals(Instant.MIN) || to.equals(Instant.MAX)))) {
            System.err.println("usage: JfrBreakdown [--from=<instant> --to=<instant>] <recording.jfr>...");
            System.exit(2);
        }
        for (String file : files) {
            List<RecordedEvent> all = RecordingFile.readAllEvents(Path.of(file));
            Instant start = from;
            Instant end = to;
            List<RecordedEvent> events = all.stream()
                    .filter(event -> !event.getStartTime().isBefore(start) && !event.getStartTime().isAfter(end))
                    .toList();
            if (span) {
                printPauses(file, all, events, from, to);
            }
            print(file, events);
        }
    }

    /** The span's collections; async-profiler's recordings have none to count, and say so. */
    private static void printPauses(String file, List<RecordedEvent> all, List<RecordedEvent> inSpan, Instant from,
            Instant to) {
        String seconds = String.format(Locale.ROOT, "%.2f s", Duration.between(from, to).toNanos() / 1e9);
        if (all.stream().noneMatch(JfrBreakdown::isCollection)) {
            System.out.printf("%s: from %s to %s (%s); the recording has no garbage-collection events%n", file, from,
                    to, seconds);
            return;
        }
        long pauseNanos = 0;
        int collections = 0;
        for (RecordedEvent event : inSpan) {
            if (isCollection(event)) {
                collections++;
                pauseNanos += event.getDuration("sumOfPauses").toNanos();
            }
        }
        System.out.printf(Locale.ROOT, "%s: from %s to %s (%s): %d collections, %.0f ms paused%n", file, from, to,
                seconds, collections, pauseNanos / 1e6);
    }

    private static boolean isCollection(RecordedEvent event) {
        return event.getEventType().getName().equals("jdk.GarbageCollection");
    }

    private static void print(String file, List<RecordedEvent> events) {
        Map<String, Integer> byLibrary = new HashMap<>();
        Map<String, Integer> byThread = new HashMap<>();
        Map<String, Integer> byMethod = new HashMap<>();
        Map<String, Integer> frameworkInclusive = new HashMap<>();
        Map<String, Long> allocatedByLibrary = new HashMap<>();
        Map<String, Long> allocatedInclusive = new HashMap<>();
        long allocated = 0;
        int samples = 0;
        for (RecordedEvent event : events) {
            if (event.getEventType().getName().equals("jdk.ObjectAllocationSample") && event.getStackTrace() != null) {
                long weight = event.getLong("weight");
                allocated += weight;
                List<RecordedFrame> frames = event.getStackTrace().getFrames();
                allocatedByLibrary.merge(library(frames), weight, Long::sum);
                frameworkMethods(frames).forEach(method -> allocatedInclusive.merge(method, weight, Long::sum));
                continue;
            }
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            samples++;
            RecordedStackTrace stack = event.getStackTrace();
            byLibrary.merge(library(stack.getFrames()), 1, Integer::sum);
            byThread.merge(threadGroup(event.getThread("sampledThread")), 1, Integer::sum);
            if (!stack.getFrames().isEmpty()) {
                RecordedFrame top = stack.getFrames().get(0);
                byMethod.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1, Integer::sum);
            }
            frameworkMethods(stack.getFrames()).forEach(method -> frameworkInclusive.merge(method, 1, Integer::sum));
        }
        System.out.printf("%s: %,d execution samples (a JFR recording samples Java threads only; async-profiler's"
                + " ctimer every thread's CPU, JIT and GC included)%n", file, samples);
        table("library (first non-JDK frame from the top)", byLibrary, samples, 20);
        table("thread", byThread, samples, 12);
        table("top method (self)", byMethod, samples, 15);
        table("framework method on the stack (inclusive: kubeloop, josdk, harness)", frameworkInclusive, samples, 25);
        System.out.printf("%n%s: %,d MB allocated (sampled weight, jdk.ObjectAllocationSample)%n", file,
                allocated >> 20);
        megabytes("allocating library (first non-JDK frame from the top)", allocatedByLibrary, allocated, 12);
        megabytes("framework method on the stack (inclusive), allocated", allocatedInclusive, allocated, 25);
    }

    private static void megabytes(String title, Map<String, Long> bytes, long total, int limit) {
        System.out.printf("%n| %s | MB | share |%n|---|---:|---:|%n", title);
        bytes.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(limit)
                .forEach(entry -> System.out.printf(Locale.ROOT, "| %s | %,d | %.1f%% |%n", entry.getKey(),
                        entry.getValue() >> 20, 100.0 * entry.getValue() / Math.max(1, total)));
    }

    /** The distinct kubeloop, JOSDK and harness methods on a stack: where the framework's own code leads. */
    private static Set<String> frameworkMethods(List<RecordedFrame> frames) {
        Set<String> methods = new LinkedHashSet<>();
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("dev.kubeloop.") || type.startsWith("io.javaoperatorsdk.")) {
                String simple = type.substring(type.lastIndexOf('.') + 1);
                methods.add(simple + "." + frame.getMethod().getName());
            }
        }
        return methods;
    }

    /**
     * The sampled thread's name with its numbers folded ({@code #}); the JVM's own threads, which
     * async-profiler samples and JFR does not, by their OS name, JIT compilers and GC threads named
     * as such.
     */
    private static String threadGroup(RecordedThread thread) {
        if (thread == null) {
            return "?";
        }
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        if (name == null) {
            return "?";
        }
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return "JIT compiler (" + name.substring(0, 2) + ")";
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return "garbage collector";
        }
        return name.replaceAll("\\d+", "#");
    }

    private static String library(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.")
                    || type.startsWith("com.sun.")) {
                continue;
            }
            String library = libraryOf(type);
            if (library != null) {
                return library;
            }
            if (type.startsWith("libjvm")) {
                return "JVM (JIT, GC, runtime)";
            }
            if (type.startsWith("libc") || type.startsWith("libpthread")) {
                return "libc (system calls)";
            }
            return "other: " + type.substring(0, Math.max(0, type.lastIndexOf('.')));
        }
        return "JDK only";
    }

    /** The library name of a class outside the JDK, by package prefix; null for one of no library named here. */
    static String libraryOf(String type) {
        for (Map.Entry<String, String> library : LIBRARIES.entrySet()) {
            if (type.startsWith(library.getKey())) {
                return library.getValue();
            }
        }
        return null;
    }

    private static void table(String title, Map<String, Integer> counts, int total, int limit) {
        System.out.printf("%n| %s | samples | share |%n|---|---:|---:|%n", title);
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .forEach(entry -> System.out.printf(Locale.ROOT, "| %s | %,d | %.1f%% |%n", entry.getKey(),
                        entry.getValue(), 100.0 * entry.getValue() / Math.max(1, total)));
    }
}
