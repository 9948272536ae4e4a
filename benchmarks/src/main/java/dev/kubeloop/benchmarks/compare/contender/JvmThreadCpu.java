package dev.kubeloop.benchmarks.compare.contender;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of the JVM's own threads, read from {@code /proc/self/task} (Linux): the JIT compiler
 * threads and the garbage collector's threads, whose time is part of the process CPU but no Java
 * profiler samples. The JMX compilation time would not do: it is elapsed time per compilation,
 * which on a busy two-core machine includes waiting for a core.
 *
 * <p>Only live threads are counted. On a two-core machine the JVM runs one C1 and one C2 compiler
 * thread and a fixed set of G1 threads, none of which exit, so nothing is missed there.
 * Resolution is one clock tick (10 ms). Returns -1 where {@code /proc} is not available.
 */
final class JvmThreadCpu {

    /** Linux's USER_HZ, the unit of utime/stime in /proc; 100 on every mainstream distribution. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    private static final Path TASKS = Path.of("/proc/self/task");

    private JvmThreadCpu() {
    }

    /** CPU of the JIT compiler threads, in nanoseconds. */
    static long jitNanos() {
        return sum(Kind.JIT);
    }

    /** CPU of the garbage collector's threads (G1 workers, marking, refinement, service), in nanoseconds. */
    static long gcNanos() {
        return sum(Kind.GC);
    }

    private enum Kind {
        JIT, GC, OTHER
    }

    private static Kind kind(String name) {
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return Kind.JIT;
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return Kind.GC;
        }
        return Kind.OTHER;
    }

    private static long sum(Kind wanted) {
        if (!Files.isDirectory(TASKS)) {
            return -1;
        }
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    if (kind(Files.readString(task.resolve("comm")).trim()) == wanted) {
                        ticks += userPlusSystemTicks(Files.readString(task.resolve("stat")));
                    }
                } catch (IOException e) {
                    // the thread exited while we looked: its time is gone from /proc, nothing to add
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return ticks * NANOS_PER_TICK;
    }

    /** Fields 14 and 15 of /proc/.../stat (utime, stime), counted after the parenthesized name. */
    private static long userPlusSystemTicks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is field 3 (state), so utime (14) is fields[11] and stime (15) fields[12]
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
