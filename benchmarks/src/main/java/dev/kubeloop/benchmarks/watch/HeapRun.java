package dev.kubeloop.benchmarks.watch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of {@link MetadataHeapChild} (or another heap child) in a fresh JVM ({@code -Xms1g -Xmx1g -XX:+UseG1GC}, as the
 * comparison harness's contenders), so that one measurement's classes, caches and garbage never
 * reach the next. Its {@code [heap]} line is parsed; its stderr goes to the log file.
 *
 * @param figures the child's {@code key=value} figures
 * @param exitCode its exit code; -1 if it was killed at the timeout
 */
record HeapRun(Map<String, String> figures, int exitCode) {

    /** @param master the API server's URL; null to have the child read the kubeconfig */
    static HeapRun run(String master, String namespace, boolean metadataOnly, int expected, Path log)
            throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("--namespace=" + namespace,
                "--metadata-only=" + metadataOnly, "--expect=" + expected));
        if (master != null) {
            options.add("--master=" + master);
        }
        return run(MetadataHeapChild.class, options, log);
    }

    /** Runs {@code child}'s main with {@code options}; it prints a {@code [heap]} line as {@link MetadataHeapChild} does. */
    static HeapRun run(Class<?> child, List<String> options, Path log) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
                "-cp", System.getProperty("java.class.path"),
                child.getName()));
        command.addAll(options);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
        Map<String, String> figures = new HashMap<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith(MetadataHeapChild.REPORT_PREFIX)) {
                    for (String pair : line.substring(MetadataHeapChild.REPORT_PREFIX.length()).trim().split(" ")) {
                        int eq = pair.indexOf('=');
                        figures.put(pair.substring(0, eq), pair.substring(eq + 1));
                    }
                }
            }
        }
        int exitCode = -1;
        if (process.waitFor(10, TimeUnit.MINUTES)) {
            exitCode = process.exitValue();
        } else {
            process.destroyForcibly();
        }
        return new HeapRun(Map.copyOf(figures), exitCode);
    }

    long figure(String key) {
        String value = figures.get(key);
        if (value == null || exitCode != 0) {
            throw new IllegalStateException("the heap child failed (exit code " + exitCode + ", figures " + figures
                    + "); see its log");
        }
        return Long.parseLong(value);
    }
}
