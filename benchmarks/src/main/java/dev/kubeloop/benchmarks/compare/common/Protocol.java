package dev.kubeloop.benchmarks.compare.common;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The line protocol between the launcher and a contender process. The launcher writes commands
 * to the child's stdin; the child answers with event lines on stdout, which start with
 * {@link #PREFIX} so that anything else a library prints there is just passed to the log:
 *
 * <pre>@@bench READY wall=1767225600000000000 cpu=812000000 uptimeMs=640</pre>
 */
public final class Protocol {

    public static final String PREFIX = "@@bench ";

    // events (child -> launcher)
    public static final String STARTING = "STARTING";
    public static final String READY = "READY";
    public static final String SEEN = "SEEN";
    public static final String REGISTERED = "REGISTERED";
    public static final String STATS = "STATS";
    public static final String LATENCY = "LATENCY";
    public static final String FAILED = "FAILED";
    public static final String STOPPED = "STOPPED";

    // commands (launcher -> child); STATS and LATENCY answer with the event of the same name, and
    // each LATENCY answer covers the samples since the previous one
    /**
     * {@code AWAIT_SEEN <id> <count> <minGeneration> [name]}: answer REGISTERED now and SEEN once
     * {@code count} objects (or the named one) were seen at {@code minGeneration} or later.
     */
    public static final String AWAIT_SEEN = "AWAIT_SEEN";
    /** Run full collections, then answer STATS. */
    public static final String GC = "GC";
    public static final String STOP = "STOP";

    private Protocol() {
    }

    /** One event line: a type and its {@code key=value} fields (values contain no spaces). */
    public record Event(String type, Map<String, String> fields) {

        public long longField(String key) {
            String value = fields.get(key);
            if (value == null) {
                throw new IllegalStateException("event " + type + " has no field " + key + ": " + fields);
            }
            return Long.parseLong(value);
        }

        public String field(String key) {
            return fields.get(key);
        }

        public String format() {
            StringBuilder line = new StringBuilder(PREFIX).append(type);
            fields.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
            return line.toString();
        }
    }

    public static Event event(String type, Object... keysAndValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            fields.put(String.valueOf(keysAndValues[i]), String.valueOf(keysAndValues[i + 1]).replace(' ', '_'));
        }
        return new Event(type, fields);
    }

    /** The event on a stdout line, or empty if the line is ordinary output. */
    public static Optional<Event> parse(String line) {
        if (!line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = line.substring(PREFIX.length()).trim().split(" ");
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                fields.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
        }
        return Optional.of(new Event(parts[0], fields));
    }
}
