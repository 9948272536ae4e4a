package dev.kubeloop.autoconfigure.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A SIGTERM is a normal stop: exit 0 after the shutdown hooks; a second one while they run halts with 1. */
class ExitZeroOnSigtermTest {

    @Test
    void theFirstSigtermExitsZeroAndASecondOneHaltsWithOne() {
        List<String> calls = new ArrayList<>();
        ExitZeroOnSigterm handler = new ExitZeroOnSigterm(code -> calls.add("exit " + code),
                code -> calls.add("halt " + code));

        handler.sigterm();
        handler.sigterm();

        assertThat(calls).containsExactly("exit 0", "halt 1");
    }

    /** The real signal, to a real JVM: what the kubelet, a process manager or spring-boot:run's stop sends. */
    @Test
    void aSigtermedJvmRunsItsShutdownHooksAndExitsZero() throws Exception {
        assertThat(terminate(true)).containsExactly("ready", "shutdown hook ran", "exit 0");
    }

    /** Why the handler exists: the JVM's own handling reports the same clean stop as 143 (128 + SIGTERM). */
    @Test
    void withoutItTheSameStopExits143() throws Exception {
        assertThat(terminate(false)).containsExactly("ready", "shutdown hook ran", "exit 143");
    }

    /** Starts {@link Child}, waits until it says ready, sends it SIGTERM, and returns its lines and exit code. */
    private static List<String> terminate(boolean install) throws Exception {
        assumeFalse(System.getProperty("os.name").startsWith("Windows"), "Process.destroy sends SIGTERM on Unix only");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Child.class.getName(), Boolean.toString(install)).redirectErrorStream(false).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            lines.add(line);
            assertThat(line).as("the child's first line").isEqualTo("ready");
            child.toHandle().destroy(); // SIGTERM; Process.destroy would also close the streams we read
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        } finally {
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child ended").isTrue();
        }
        lines.add("exit " + child.exitValue());
        return lines;
    }

    /** A JVM that stands for an operator: a shutdown hook (Spring's graceful shutdown), then it waits to be stopped. */
    public static final class Child {

        public static void main(String[] args) throws InterruptedException {
            if (Boolean.parseBoolean(args[0])) {
                assertThat(ExitZeroOnSigterm.install()).isTrue();
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                System.out.println("shutdown hook ran");
                System.out.flush();
            }));
            System.out.println("ready");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
