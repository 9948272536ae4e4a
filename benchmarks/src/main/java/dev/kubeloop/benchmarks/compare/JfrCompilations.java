package dev.kubeloop.benchmarks.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the JIT compiled, and for how long, split at "ready": the {@code jdk.Compilation} events of
 * a recording made with {@code benchmarks/compilations.jfc} (every compilation, no threshold), by
 * the library of the compiled method and by tier (C1: levels 1 to 3, C2: level 4), before and
 * after {@code --ready=<seconds after the JVM's start>} (a cold start's "ready s"), and the longest
 * C2 compilations after it. A compilation's duration is the wall time of its task on a compiler
 * thread: on a machine whose cores are busy it includes waiting for one, so read it as an upper
 * bound of the JIT's CPU and compare contenders of the same invocation.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.compare.JfrCompilations --ready=4.10 recording.jfr</pre>
 */
public final class JfrCompilations {

    private JfrCompilations() {
    }

    public static void main(String[] args) throws IOException {
        double readySeconds = -1;
        List<String> files = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--ready=")) {
                readySeconds = Double.parseDouble(arg.substring("--ready=".length()));
            } else {
                files.add(arg);
            }
        }
        if (files.isEmpty() || readySeconds < 0) {
            System.err.println("usage: JfrCompilations --ready=<seconds after the JVM's start> <recording.jfr>...");
            System.exit(2);
        }
        for (String file : files) {
            print(file, RecordingFile.readAllEvents(Path.of(file)), readySeconds);
        }
    }

    /** Count and seconds of C1 and C2 compilations. */
    private static final class Tally {
        int c1;
        int c2;
        double c1Seconds;
        double c2Seconds;

        void add(RecordedEvent compilation) {
            double seconds = compilation.getDuration().toNanos() / 1e9;
            if (compilation.getInt("compileLevel") == 4) {
                c2++;
                c2Seconds += seconds;
            } else {
                c1++;
                c1Seconds += seconds;
            }
        }

        double seconds() {
            return c1Seconds + c2Seconds;
        }
    }

    private static void print(String file, List<RecordedEvent> events, double readySeconds) {
        Instant jvmStart = events.stream().filter(e -> e.getEventType().getName().equals("jdk.JVMInformation"))
                .map(e -> e.getInstant("jvmStartTime")).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(file + " has no jdk.JVMInformation event"));
        Instant ready = jvmStart.plusNanos((long) (readySeconds * 1e9));
        Map<String, Tally> before = new HashMap<>();
        Map<String, Tally> after = new HashMap<>();
        Map<String, Double> longestAfter = new HashMap<>();
        for (RecordedEvent event : events) {
            if (!event.getEventType().getName().equals("jdk.Compilation")) {
                continue;
            }
            String type = ((String) event.getValue("method.type.name")).replace('/', '.'); // internal form: a/b/C
            boolean afterReady = !event.getStartTime().isBefore(ready);
            (afterReady ? after : before).computeIfAbsent(library(type), k -> new Tally()).add(event);
            if (afterReady && event.getInt("compileLevel") == 4) {
                longestAfter.merge(type + "." + event.getValue("method.name"),
                        event.getDuration().toNanos() / 1e9, Double::sum);
            }
        }
        if (before.isEmpty() && after.isEmpty()) {
            System.out.printf("%s: no jdk.Compilation events (record with settings=benchmarks/compilations.jfc)%n", file);
            return;
        }
        System.out.printf(Locale.ROOT, "%s: compilations before and after ready (%.2f s after the JVM's start)%n",
                file, readySeconds);
        table("before ready", before);
        table("after ready", after);
        System.out.printf("%n| the longest C2 compilations after ready | s |%n|---|---:|%n");
        longestAfter.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(20)
                .forEach(e -> System.out.printf(Locale.ROOT, "| %s | %.3f |%n", e.getKey(), e.getValue()));
    }

    private static void table(String title, Map<String, Tally> byLibrary) {
        System.out.printf("%n| %s: library of the method | C1 | C1 s | C2 | C2 s | s |%n|---|---:|---:|---:|---:|---:|%n",
                title);
        Tally all = new Tally();
        byLibrary.entrySet().stream()
                .sorted((a, b) -> Double.compare(b.getValue().seconds(), a.getValue().seconds()))
                .forEach(entry -> {
                    Tally t = entry.getValue();
                    all.c1 += t.c1;
                    all.c2 += t.c2;
                    all.c1Seconds += t.c1Seconds;
                    all.c2Seconds += t.c2Seconds;
                    row(entry.getKey(), t);
                });
        row("**all**", all);
    }

    private static void row(String name, Tally t) {
        System.out.printf(Locale.ROOT, "| %s | %,d | %.2f | %,d | %.2f | %.2f |%n", name, t.c1, t.c1Seconds, t.c2,
                t.c2Seconds, t.seconds());
    }

    /** The library a compiled method belongs to: JfrBreakdown's names, and the JDK's own. */
    private static String library(String type) {
        if (type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.") || type.startsWith("com.sun.")) {
            return "JDK";
        }
        String library = JfrBreakdown.libraryOf(type);
        return library != null ? library : "other: " + type.substring(0, Math.max(0, type.lastIndexOf('.')));
    }
}
