package dev.kubeloop.benchmarks.compare.contender;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** The process's own CPU time and heap, as the JVM reports them. */
final class ProcessMetrics {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private ProcessMetrics() {
    }

    /** CPU time of all the process's threads (application, GC, JIT), in nanoseconds. */
    static long cpuNanos() {
        return OS.getProcessCpuTime();
    }

    static long heapUsedBytes() {
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    /** Classes loaded since the JVM started (unloaded ones included). */
    static long loadedClasses() {
        return ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
    }

    static long uptimeMillis() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /**
     * Full collections until the heap stops shrinking (at most five): one System.gc() can leave
     * garbage that finalization or reference processing frees only in the next.
     */
    static void fullGc() {
        long before = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long after = heapUsedBytes();
            if (after >= before) {
                return;
            }
            before = after;
        }
    }
}
