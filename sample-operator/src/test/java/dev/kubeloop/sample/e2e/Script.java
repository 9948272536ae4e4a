package dev.kubeloop.sample.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One of the repository's scripts ({@code scripts/local-*.sh}) run by bash: its output, or an AssertionError. */
final class Script {

    private Script() {
    }

    /** Runs {@code bash script arguments...}; returns its output (stdout and stderr) if it exits 0 in time. */
    static String run(Path script, long timeoutSeconds, String... arguments) {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(arguments));
        try {
            Path output = Files.createTempFile("script", ".log");
            try {
                Process process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).start();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not finish within " + timeoutSeconds
                            + " s:\n" + Files.readString(output, StandardCharsets.UTF_8));
                }
                String text = Files.readString(output, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new AssertionError(String.join(" ", command) + " failed (exit " + process.exitValue()
                            + "):\n" + text);
                }
                return text;
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new AssertionError("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted running " + command, e);
        }
    }
}
