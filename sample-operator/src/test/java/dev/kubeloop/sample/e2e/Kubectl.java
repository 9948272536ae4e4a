package dev.kubeloop.sample.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code kubectl} against the cluster under test ({@code KUBECONFIG}), as a user types it; tests
 * that use it are skipped when it is not on the PATH, unless {@code e2e.kubectl.required} is true
 * (CI sets it): there a missing kubectl fails them, so their cases cannot vanish from a run unseen.
 */
final class Kubectl {

    /** What a kubectl run printed, and how it ended. */
    record Run(int exitCode, String stdout, String stderr) {
    }

    private Kubectl() {
    }

    static void assumeInstalled() {
        boolean found = System.getenv().getOrDefault("PATH", "").isEmpty() ? false
                : java.util.Arrays.stream(System.getenv("PATH").split(File.pathSeparator))
                        .anyMatch(dir -> Files.isExecutable(Path.of(dir, "kubectl")));
        if (!found && Boolean.getBoolean("e2e.kubectl.required")) {
            throw new AssertionError("kubectl is not on the PATH, and e2e.kubectl.required is true: install"
                    + " kubectl (the cases that use it prove what a user sees), or run without"
                    + " -De2e.kubectl.required=true to skip them");
        }
        assumeTrue(found, "Skipped: kubectl is not on the PATH");
    }

    /** Runs {@code kubectl <arguments>} with {@code stdin} as its input; 60 s at most. */
    static Run run(String stdin, String... arguments) {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(List.of(arguments));
        try {
            Path in = Files.createTempFile("kubectl-in", ".yaml");
            Path out = Files.createTempFile("kubectl-out", ".txt");
            Path err = Files.createTempFile("kubectl-err", ".txt");
            try {
                Files.writeString(in, stdin == null ? "" : stdin);
                Process process = new ProcessBuilder(command).redirectInput(in.toFile()).redirectOutput(out.toFile())
                        .redirectError(err.toFile()).start();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
                }
                return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(in);
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new AssertionError("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted running " + command, e);
        }
    }
}
