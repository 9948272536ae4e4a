package dev.kubeloop.benchmarks.writes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The kube-apiserver's audit log ({@code scripts/local-apiserver.sh start --audit}: JSON lines,
 * Metadata level), read from a position on: what the server itself saw, whichever client sent
 * it and whatever the client counts. A phase remembers {@link #end()} when it starts and reads
 * {@link #since} when it is over and quiet (the server writes an event once the response is
 * complete, just after the client got it).
 */
final class AuditLog {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One request, once: its {@code ResponseComplete} event, or for a watch its
     * {@code ResponseStarted} (a watch still open at the end of a phase has no completion yet).
     *
     * @param subresource null for the object itself
     * @param namespace null for cluster-scoped requests and for non-resource URLs
     * @param code the response's HTTP status
     */
    record Request(String verb, String resource, String subresource, String namespace, String name,
            String userAgent, int code) {

        boolean isWrite() {
            return switch (verb) {
                case "create", "update", "patch", "delete", "deletecollection" -> true;
                default -> false;
            };
        }

        /** {@code websites/status}, {@code configmaps}, or the URL's verb for a non-resource request. */
        String target() {
            return resource == null ? "(non-resource)" : subresource == null ? resource : resource + "/" + subresource;
        }
    }

    private final Path file;

    AuditLog(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** The position a later {@link #since} starts at. */
    long end() throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    /** The requests logged from {@code position} on, complete lines only. */
    List<Request> since(long position) throws IOException {
        List<Request> requests = new ArrayList<>();
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= position) {
                return requests;
            }
            byte[] bytes = new byte[Math.toIntExact(length - position)];
            in.seek(position);
            in.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            int lineStart = 0;
            for (int newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', lineStart)) {
                Request request = parse(text.substring(lineStart, newline));
                if (request != null) {
                    requests.add(request);
                }
                lineStart = newline + 1;
            }
        }
        return requests;
    }

    private static Request parse(String line) throws IOException {
        if (line.isBlank()) {
            return null;
        }
        JsonNode event = JSON.readTree(line);
        String stage = event.path("stage").asText();
        String verb = event.path("verb").asText();
        boolean counted = verb.equals("watch") ? stage.equals("ResponseStarted")
                : stage.equals("ResponseComplete") || stage.equals("Panic");
        if (!counted) {
            return null;
        }
        JsonNode ref = event.path("objectRef");
        return new Request(verb, text(ref, "resource"), text(ref, "subresource"), text(ref, "namespace"),
                text(ref, "name"), event.path("userAgent").asText(), event.path("responseStatus").path("code").asInt());
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() || value.asText().isEmpty() ? null : value.asText();
    }
}
