package dev.kubeloop.sample.replica;

import dev.kubeloop.test.KubeloopTestKit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A replica of the sample operator in a JVM of its own ({@link JournaledOperator} on the test's
 * class path), so that a test can do to it what happens to a pod: SIGTERM ({@link #terminate()})
 * or SIGKILL ({@link #kill()}). Its console goes to {@code <instance>.log} and its reconcile
 * journal to {@code <instance>.journal} in the given directory. It talks to the test's API server:
 * the real cluster's {@code KUBECONFIG}, or a kubeconfig for the embedded mock server.
 *
 * <p>{@link #close()} kills the process if it still runs, so that no replica outlives its test.
 * Not thread-safe: one test thread drives it.
 */
public final class OperatorProcess implements AutoCloseable {

    /**
     * A Kubeloop operator exits 0 on SIGTERM once its shutdown hooks have run
     * ({@code kubeloop.exit-zero-on-sigterm}); the JVM's own handling would say 128 + 15.
     */
    public static final int SIGTERM_EXIT_CODE = 0;
    /** ... and 128 + 9 on SIGKILL. */
    public static final int SIGKILL_EXIT_CODE = 137;

    private static final Duration REAP_TIMEOUT = Duration.ofSeconds(60);
    /** Each replica's client says {@code kubeloop-replica/<instance>} in its User-Agent. */
    public static final String USER_AGENT_PREFIX = "kubeloop-replica/";

    private final String instance;
    private final Process process;
    private final Path journal;
    private final Path log;
    private final Instant started;

    private OperatorProcess(String instance, Process process, Path journal, Path log, Instant started) {
        this.instance = instance;
        this.process = process;
        this.journal = journal;
        this.log = log;
        this.started = started;
    }

    /**
     * Starts a replica named {@code instance} (also its journal's name) with the Spring Boot
     * {@code properties} ({@code key=value}), reconciles delayed by {@code reconcileDelay}.
     */
    public static OperatorProcess start(String instance, Path directory, KubeloopTestKit kit, Duration reconcileDelay,
            List<String> properties) {
        return start(instance, directory, kit, reconcileDelay, false, properties);
    }

    /**
     * As {@link #start(String, Path, KubeloopTestKit, Duration, List)}; with {@code delayIgnoresInterrupts}
     * the delay runs to its end whatever interrupts it (the interrupt is kept), as a reconcile busy
     * computing would, so that what follows it runs even in a reconcile its replica tried to stop.
     */
    public static OperatorProcess start(String instance, Path directory, KubeloopTestKit kit, Duration reconcileDelay,
            boolean delayIgnoresInterrupts, List<String> properties) {
        Path journal = directory.resolve(instance + ".journal");
        Path log = directory.resolve(instance + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java,
                // small and quick to start: two replicas, the API server and the build share two cores
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-D" + JournaledOperator.JOURNAL + "=" + journal.toAbsolutePath(),
                "-D" + JournaledOperator.INSTANCE + "=" + instance,
                "-D" + JournaledOperator.DELAY + "=" + reconcileDelay.toMillis(),
                "-D" + JournaledOperator.DELAY_IGNORES_INTERRUPTS + "=" + delayIgnoresInterrupts,
                // the API server's audit log then tells the replicas' requests apart
                "-Dkubernetes.user.agent=" + USER_AGENT_PREFIX + instance,
                // a loaded machine's API server can take longer than fabric8's 10 s to accept a connection
                "-Dkubernetes.connection.timeout=60000",
                "-cp", classPath(), JournaledOperator.class.getName()));
        properties.forEach(property -> command.add("--" + property));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        if (!kit.realCluster()) {
            builder.environment().put("KUBECONFIG", MockKubeconfig.write(directory, kit.client()).toString());
        }
        try {
            Files.createDirectories(directory);
            Instant started = Instant.now();
            return new OperatorProcess(instance, builder.start(), journal, log, started);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start replica " + instance + ": " + command, e);
        }
    }

    public String instance() {
        return instance;
    }

    /** When the process was started. */
    public Instant started() {
        return started;
    }

    /** What the replica has journaled so far. */
    public ReconcileJournal journal() {
        return ReconcileJournal.read(journal, instance);
    }

    /** The child JVM's process id (for {@code jcmd}). */
    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /**
     * SIGKILL, as the kernel's OOM killer or a lost node does: nothing runs any more, nothing is
     * released. Returns once the process is gone.
     */
    public void kill() {
        process.destroyForcibly();
        if (awaitExit(REAP_TIMEOUT).isEmpty()) {
            throw new AssertionError("replica " + instance + " still runs " + REAP_TIMEOUT + " after SIGKILL");
        }
    }

    /**
     * SIGSTOP, as a long GC pause or a frozen VM: every thread stops where it is, timers included.
     * The caller resumes it ({@link #resume()}) or kills it in a {@code finally}.
     */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted sending SIG" + name, e);
        }
    }

    /** SIGTERM, as the kubelet sends on pod deletion; returns at once. */
    public void terminate() {
        process.destroy();
    }

    /** The exit code once the process has ended, waiting up to {@code timeout}; empty if it still runs. */
    public Optional<Integer> awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? Optional.of(process.exitValue())
                    : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The replica's console output so far. */
    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** For failure messages: who, whether it runs, and where its log is. */
    @Override
    public String toString() {
        return "replica " + instance + " (pid " + process.pid() + ", "
                + (process.isAlive() ? "running" : "exited with " + process.exitValue()) + ", log "
                + log.toAbsolutePath() + ")";
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            awaitExit(REAP_TIMEOUT);
        }
    }

    /** Surefire puts the test class path in a manifest-only jar and publishes the real one here. */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }
}
