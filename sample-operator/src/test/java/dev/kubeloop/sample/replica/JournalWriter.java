package dev.kubeloop.sample.replica;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The replica's side of a {@link ReconcileJournal}: one line per event, {@code <epoch micros>
 * <instance> <event> [<key> [<detail>]]}, appended and flushed line by line so that what a
 * replica did survives its SIGKILL (the bytes are in the kernel once {@code flush} returns). The
 * time is taken under the lock, so the file's order is the order of the times.
 *
 * <p>Never closed: the replica's last line may come from its shutdown hook, and the file is closed
 * when the JVM ends. Thread-safe: writes are serialized.
 */
final class JournalWriter {

    private final Writer out;
    private final String instance;

    JournalWriter(Path file, String instance) {
        this.instance = instance;
        try {
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the reconcile journal " + file, e);
        }
    }

    synchronized void write(String event, String... fields) {
        StringBuilder line = new StringBuilder().append(ReconcileJournal.micros(Instant.now())).append(' ')
                .append(instance).append(' ').append(event);
        for (String field : fields) {
            line.append(' ').append(field);
        }
        try {
            out.write(line.append('\n').toString());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the reconcile journal", e);
        }
    }
}
