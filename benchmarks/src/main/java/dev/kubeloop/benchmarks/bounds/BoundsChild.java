package dev.kubeloop.benchmarks.bounds;

import dev.kubeloop.benchmarks.bounds.app.BoundsOperatorMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of {@link BoundsOperatorMain} in its own JVM, sized like the Helm chart's default pod:
 * the JVM sees a machine of {@code memory} with {@code cpus} processors ({@code -XX:MaxRAM},
 * {@code -XX:ActiveProcessorCount}, as it would see the container's cgroup limits) and takes
 * {@code MaxRAMPercentage} of it as heap, so it also picks the collector it would pick there. Its
 * stdout's {@code [bounds]} line is parsed; everything else, and stderr, goes to the log file.
 *
 * @param figures the child's {@code key=value} figures; empty if it printed none
 * @param exitCode the child's exit code; -1 if it was killed at the timeout
 * @param outOfMemory whether it ran out of heap (exit code 3 with {@code -XX:+ExitOnOutOfMemoryError})
 */
record BoundsChild(Map<String, String> figures, int exitCode, boolean outOfMemory) {

    static final String REPORT_PREFIX = "[bounds] ";

    static BoundsChild run(String masterUrl, int objects, long listPageSize, JvmShape shape, Duration timeout,
            Path log) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:MaxRAM=" + shape.memory(),
                "-XX:MaxRAMPercentage=" + shape.maxRamPercentage(),
                "-XX:ActiveProcessorCount=" + shape.cpus(),
                "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"),
                BoundsOperatorMain.class.getName(),
                "--master=" + masterUrl,
                "--namespace=" + PreparedObjects.NAMESPACE,
                "--objects=" + objects,
                "--list-page-size=" + listPageSize,
                "--timeout-seconds=" + timeout.toSeconds()));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
        Map<String, String> figures = new LinkedHashMap<>();
        Thread reader = new Thread(() -> readStdout(process, log.resolveSibling(log.getFileName() + ".stdout"),
                figures), "bounds-child-stdout");
        reader.setDaemon(true);
        reader.start();
        int exitCode;
        if (process.waitFor(timeout.toSeconds() + 60, TimeUnit.SECONDS)) {
            exitCode = process.exitValue();
        } else {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            exitCode = -1;
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        boolean outOfMemory = exitCode == 3 || Files.readString(log).contains("OutOfMemoryError");
        synchronized (figures) {
            return new BoundsChild(Map.copyOf(figures), exitCode, outOfMemory);
        }
    }

    private static void readStdout(Process process, Path stdoutLog, Map<String, String> figures) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
                Writer other = Files.newBufferedWriter(stdoutLog, StandardCharsets.UTF_8)) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith(REPORT_PREFIX)) {
                    synchronized (figures) {
                        for (String pair : line.substring(REPORT_PREFIX.length()).trim().split(" ")) {
                            int eq = pair.indexOf('=');
                            figures.put(pair.substring(0, eq), pair.substring(eq + 1));
                        }
                    }
                } else {
                    other.write(line);
                    other.write('\n');
                }
            }
        } catch (IOException e) {
            // the child is gone; its exit code tells what happened
        }
    }

    long figure(String key) {
        String value = figures.get(key);
        return value == null ? -1 : Long.parseLong(value);
    }

    /**
     * What the child JVM is told about its machine.
     *
     * @param memory the container's memory limit, e.g. {@code 512m}
     * @param maxRamPercentage the share of it the heap may take
     * @param cpus the processors it sees
     */
    record JvmShape(String memory, int maxRamPercentage, int cpus) {
    }
}
