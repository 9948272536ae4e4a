package dev.kubeloop.sample.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits of the tests that drive replicas in child JVMs, which have no test context's manager for
 * the test kit's await to read diagnostics from; a free port for each replica's web server; and
 * the elapsed seconds the {@code [reliability]} lines print.
 */
final class Polls {

    private Polls() {
    }

    /** Polls {@code condition} every {@code poll} until it holds, failing after {@code timeout}. */
    static void await(String description, Duration timeout, Duration poll, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!holds(condition)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out after " + timeout + " waiting for: " + description);
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted waiting for: " + description, e);
            }
        }
    }

    /** A condition whose reads fail (the API server busy past the client's timeout) does not hold yet. */
    private static boolean holds(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Seconds since {@code nanos} ({@link System#nanoTime()}), for the figures a test prints, never asserted. */
    static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
