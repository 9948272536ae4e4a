package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.Protocol;
import dev.kubeloop.benchmarks.compare.common.Protocol.Event;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A contender JVM seen from the launcher: commands go to its stdin; a reader thread collects the
 * protocol events from its stdout and copies everything else to the run's log (stderr goes there
 * directly). {@link #await} hands out events by type, in order, and fails fast if the child
 * reported FAILED or exited.
 */
final class ChildProcess implements AutoCloseable {

    private final Process process;
    private final PrintWriter commands;
    private final Path log;
    private final Thread reader;
    private final List<Event> events = new ArrayList<>();
    private boolean ended;

    private ChildProcess(Process process, Path log, String name) {
        this.process = process;
        this.log = log;
        this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.reader = new Thread(this::readStdout, "child-stdout-" + name);
        this.reader.setDaemon(true);
        this.reader.start();
    }

    static ChildProcess start(List<String> command, Path log, String name) throws IOException {
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
                .start();
        return new ChildProcess(process, log, name);
    }

    private void readStdout() {
        Path stdoutLog = log.resolveSibling(log.getFileName() + ".stdout");
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
                Writer other = Files.newBufferedWriter(stdoutLog, StandardCharsets.UTF_8)) {
            String line;
            while ((line = lines.readLine()) != null) {
                var event = Protocol.parse(line);
                if (event.isPresent()) {
                    synchronized (this) {
                        events.add(event.get());
                        notifyAll();
                    }
                } else {
                    other.write(line);
                    other.write('\n');
                }
            }
        } catch (IOException e) {
            // the child is gone; await() reports it
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    void send(String command) {
        commands.println(command);
    }

    /** Sends a command and waits for its answer. */
    Event request(String command, String answerType, Duration timeout) throws InterruptedException {
        send(command);
        return await(answerType, timeout);
    }

    /** The first not yet consumed event of {@code type}, waiting up to {@code timeout} for it. */
    Event await(String type, Duration timeout) throws InterruptedException {
        return await(type, null, timeout);
    }

    /** The first not yet consumed event of {@code type} whose {@code id} field is {@code id} (null: any). */
    synchronized Event await(String type, String id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (Iterator<Event> it = events.iterator(); it.hasNext();) {
                Event event = it.next();
                if (event.type().equals(type) && (id == null || id.equals(event.field("id")))) {
                    it.remove();
                    return event;
                }
                if (event.type().equals(Protocol.FAILED)) {
                    throw new IllegalStateException("contender failed: " + event.field("error") + " (log: " + log + ")");
                }
            }
            if (ended) {
                throw new IllegalStateException("contender exited before " + type + " (log: " + log + ")");
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new IllegalStateException("no " + type + " from the contender within " + timeout + " (log: " + log
                        + ")");
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
    }

    /** Asks the child to stop and waits for it; kills it if it does not exit in time. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                send(Protocol.STOP);
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    System.err.println("contender did not stop within 60 s, killing it (log: " + log + ")");
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            }
            commands.close();
            reader.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller sees the interrupt
            process.destroyForcibly();
            commands.close();
        }
    }
}
