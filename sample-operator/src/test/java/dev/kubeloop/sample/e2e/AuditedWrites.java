package dev.kubeloop.sample.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The writes one service account made in one namespace, read from the cluster's audit log
 * (scripts/local-cluster.sh logs what service accounts write): which Pod (its IP) wrote which
 * object when. Replicas of one operator share a service account; their Pod IPs tell them apart.
 */
record AuditedWrites(List<Write> writes) {

    /** One successful write: the object (resource/name, with its subresource), the writer's IP, when it completed. */
    record Write(String object, String writer, Instant at) {
    }

    static AuditedWrites read(Path log, String user, String namespace) {
        ObjectMapper json = new ObjectMapper();
        List<Write> writes = new ArrayList<>();
        try (Stream<String> lines = Files.lines(log)) {
            lines.forEach(line -> {
                try {
                    JsonNode event = json.readTree(line);
                    JsonNode ref = event.path("objectRef");
                    int code = event.path("responseStatus").path("code").asInt(0);
                    if (!user.equals(event.path("user").path("username").asText())
                            || !namespace.equals(ref.path("namespace").asText()) || code < 200 || code >= 300
                            || !"ResponseComplete".equals(event.path("stage").asText())) {
                        return;
                    }
                    String object = ref.path("resource").asText() + "/" + ref.path("name").asText()
                            + (ref.hasNonNull("subresource") ? "/" + ref.path("subresource").asText() : "");
                    writes.add(new Write(object, event.path("sourceIPs").path(0).asText(),
                            Instant.parse(event.path("stageTimestamp").asText())));
                } catch (IOException e) {
                    // a line cut by a rotation or still being written: not a write to count
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writes.sort(Comparator.comparing(Write::at));
        return new AuditedWrites(writes);
    }

    /**
     * Writes to an object by a writer that an object's later writer had already replaced: A, B, A.
     * Replicas that hand over cleanly write an object as A…A B…B; a replica that had lost the lease
     * and still wrote shows as a return.
     */
    List<String> returns() {
        Map<String, List<String>> writersByObject = new LinkedHashMap<>();
        List<String> returns = new ArrayList<>();
        for (Write write : writes) {
            List<String> writers = writersByObject.computeIfAbsent(write.object(), o -> new ArrayList<>());
            if (!writers.isEmpty() && !writers.get(writers.size() - 1).equals(write.writer())
                    && writers.contains(write.writer())) {
                returns.add(write.object() + ": " + write.writer() + " wrote at " + write.at() + " after " + writers);
            }
            if (writers.isEmpty() || !writers.get(writers.size() - 1).equals(write.writer())) {
                writers.add(write.writer());
            }
        }
        return returns;
    }

    /** The distinct writers, in the order they first wrote. */
    List<String> writers() {
        return writes.stream().map(Write::writer).distinct().toList();
    }
}
