package dev.kubeloop.sample.replica;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What one replica journaled (see {@link JournalWriter}): when it was ready, when its context
 * began to close, when the Kubeloop runtime had stopped, and every reconcile with its enter and
 * exit times. Times are epoch microseconds from the replica's wall clock; replicas and the test
 * share one machine, so their times compare. A last line cut short by a SIGKILL is ignored.
 * Immutable.
 */
public final class ReconcileJournal {

    static final String READY = "ready";
    static final String CLOSING = "closing";
    static final String RUNTIME_STOPPED = "runtime-stopped";
    static final String ENTER = "enter";
    static final String EXIT = "exit";
    static final String INTERRUPTED = "interrupted";

    /** One line of the journal. */
    record Entry(long micros, String instance, String event, String key, String detail) {
    }

    /**
     * One reconcile of one key by one replica, from entering the reconciler to leaving it.
     * {@code outcome} is null for a reconcile that never left (its replica was killed): it then
     * counts as running until the time the journal was read with.
     */
    public record Reconcile(String instance, String key, long enter, long exit, String outcome) {

        public boolean open() {
            return outcome == null;
        }

        public boolean overlaps(Reconcile other) {
            return enter < other.exit && other.enter < exit;
        }

        @Override
        public String toString() {
            return instance + " " + key + " [" + enter + ", " + exit + "] " + (open() ? "open" : outcome);
        }
    }

    private final String instance;
    private final List<Entry> entries;

    private ReconcileJournal(String instance, List<Entry> entries) {
        this.instance = instance;
        this.entries = List.copyOf(entries);
    }

    static ReconcileJournal read(Path file, String instance) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new ReconcileJournal(instance, List.of());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the reconcile journal " + file, e);
        }
        List<Entry> entries = new ArrayList<>();
        int end = text.lastIndexOf('\n'); // anything after the last newline was cut short
        for (String line : text.substring(0, end + 1).split("\n")) {
            if (!line.isBlank()) {
                String[] fields = line.split(" ", 5);
                entries.add(new Entry(Long.parseLong(fields[0]), fields[1], fields[2],
                        fields.length > 3 ? fields[3] : null, fields.length > 4 ? fields[4] : null));
            }
        }
        return new ReconcileJournal(instance, entries);
    }

    /** When the replica had started (caches synced), if it had. */
    public Optional<Long> ready() {
        return first(READY);
    }

    /** When the replica's context began to close, if it did. */
    public Optional<Long> closing() {
        return first(CLOSING);
    }

    /** When the Kubeloop runtime's stop had returned, if it had. */
    public Optional<Long> runtimeStopped() {
        return first(RUNTIME_STOPPED);
    }

    /**
     * Every reconcile, in the order they began; one still running at the end of the journal ends
     * at {@code openUntil}.
     *
     * @throws AssertionError if the journal shows one key in two reconciles of this replica at once,
     *     which the work queue promises never to do
     */
    public List<Reconcile> reconciles(long openUntil) {
        Map<String, Entry> running = new LinkedHashMap<>();
        List<Reconcile> reconciles = new ArrayList<>();
        for (Entry entry : entries) {
            if (ENTER.equals(entry.event())) {
                Entry previous = running.put(entry.key(), entry);
                if (previous != null) {
                    throw new AssertionError(instance + " entered a reconcile of " + entry.key() + " at "
                            + entry.micros() + " while its reconcile since " + previous.micros() + " was running");
                }
            } else if (EXIT.equals(entry.event())) {
                Entry enter = running.remove(entry.key());
                if (enter == null) {
                    throw new AssertionError(instance + " journaled an exit of " + entry.key() + " without an enter");
                }
                reconciles.add(new Reconcile(instance, entry.key(), enter.micros(), entry.micros(), entry.detail()));
            }
        }
        running.values().forEach(enter -> reconciles.add(new Reconcile(instance, enter.key(), enter.micros(),
                Math.max(openUntil, enter.micros()), null)));
        reconciles.sort((a, b) -> Long.compare(a.enter(), b.enter()));
        return reconciles;
    }

    /** The reconciles that had begun and not ended at {@code micros}. */
    public List<Reconcile> runningAt(long micros) {
        return reconciles(Long.MAX_VALUE).stream().filter(r -> r.enter() <= micros && r.exit() > micros).toList();
    }

    /** The reconciles that have begun and not ended by the end of the journal. */
    public List<Reconcile> running() {
        return runningAt(Long.MAX_VALUE - 1);
    }

    /** When the first reconcile began at or after {@code micros}. */
    public Optional<Long> firstEnterFrom(long micros) {
        return entries.stream().filter(e -> ENTER.equals(e.event()) && e.micros() >= micros).map(Entry::micros)
                .findFirst();
    }

    /** When the last reconcile ended. */
    public Optional<Long> lastExit() {
        return entries.stream().filter(e -> EXIT.equals(e.event())).map(Entry::micros).reduce((a, b) -> b);
    }

    /** How many reconciles began. */
    public long enters() {
        return entries.stream().filter(e -> ENTER.equals(e.event())).count();
    }

    /** The keys reconciled at least once. */
    public Set<String> reconciledKeys() {
        return entries.stream().filter(e -> ENTER.equals(e.event())).map(Entry::key)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every pair of reconciles of one key, one from each list, whose times overlap. */
    public static List<String> overlaps(List<Reconcile> ours, List<Reconcile> theirs) {
        Map<String, List<Reconcile>> theirsByKey = new HashMap<>();
        theirs.forEach(r -> theirsByKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        List<String> overlaps = new ArrayList<>();
        for (Reconcile mine : ours) {
            for (Reconcile other : theirsByKey.getOrDefault(mine.key(), List.of())) {
                if (mine.overlaps(other)) {
                    overlaps.add(mine + " overlaps " + other);
                }
            }
        }
        return overlaps;
    }

    /** Milliseconds from {@code fromMicros} to {@code toMicros}, for the printed figures. */
    public static String millis(long fromMicros, long toMicros) {
        return (toMicros - fromMicros) / 1000 + " ms";
    }

    /** An instant as epoch microseconds, the journal's unit. */
    public static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    /** Seconds from {@code fromMicros} to {@code toMicros}, one decimal, for the printed figures. */
    public static String seconds(long fromMicros, long toMicros) {
        return String.format(Locale.ROOT, "%.1f s", (toMicros - fromMicros) / 1e6);
    }

    private Optional<Long> first(String event) {
        return entries.stream().filter(e -> event.equals(e.event())).map(Entry::micros).findFirst();
    }
}
