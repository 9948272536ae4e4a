package dev.kubeloop.benchmarks.watch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The machine's 1-minute load average (Linux {@code /proc/loadavg}), which the measurements
 * report, and a wait for it to fall: the benchmark machine is shared, and a busy machine inflates
 * times (not heap figures). Stateless.
 */
final class Load {

    private Load() {
    }

    /** The 1-minute load average as {@code /proc/loadavg} writes it; "n/a" elsewhere. */
    static String oneMinute() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    /**
     * Waits until the 1-minute load is below {@code threshold}, or {@code maxWaitSeconds} have
     * passed (then the caller measures anyway and reports the load); no wait for a threshold of 0.
     */
    static String awaitBelow(double threshold, long maxWaitSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxWaitSeconds);
        String load = oneMinute();
        while (threshold > 0 && !load.equals("n/a") && Double.parseDouble(load) >= threshold
                && System.nanoTime() < deadline) {
            TimeUnit.SECONDS.sleep(10);
            load = oneMinute();
        }
        return load;
    }
}
