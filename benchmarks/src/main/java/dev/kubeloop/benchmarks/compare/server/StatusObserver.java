package dev.kubeloop.benchmarks.compare.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Turns the bodies of accepted status writes into {@link GenerationTracker} records. Parsing
 * happens on its own thread, so the mock server's single request thread (the bottleneck of every
 * run) only pays for handing over the bytes; the time recorded is the one taken when the server
 * accepted the write.
 */
final class StatusObserver implements AutoCloseable {

    private final ObjectMapper mapper = new ObjectMapper();
    private final GenerationTracker tracker;
    private final ExecutorService parser = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "status-observer");
        thread.setDaemon(true);
        return thread;
    });

    StatusObserver(GenerationTracker tracker) {
        this.tracker = tracker;
    }

    void accepted(long wallNanos, byte[] objectJson) {
        parser.execute(() -> parse(wallNanos, objectJson));
    }

    private void parse(long wallNanos, byte[] objectJson) {
        try {
            JsonNode object = mapper.readTree(objectJson);
            JsonNode observed = object.path("status").path("observedGeneration");
            if (observed.canConvertToLong()) {
                tracker.record(object.path("metadata").path("name").asText(), observed.asLong(), wallNanos);
            }
        } catch (IOException e) {
            System.err.println("status-observer: unparsable status write: " + e);
        }
    }

    @Override
    public void close() {
        parser.shutdown();
        try {
            parser.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing anyway; the caller sees the interrupt
        }
    }
}
