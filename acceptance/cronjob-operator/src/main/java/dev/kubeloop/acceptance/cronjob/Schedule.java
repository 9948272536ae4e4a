package dev.kubeloop.acceptance.cronjob;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.support.CronExpression;

/**
 * A schedule as the original reads one, with robfig/cron's {@code ParseStandard}: five fields
 * (minute, hour, day of month, month, day of week), or a descriptor ({@code @yearly},
 * {@code @annually}, {@code @monthly}, {@code @weekly}, {@code @daily}, {@code @midnight},
 * {@code @hourly}, {@code @every <Go duration>}), after an optional {@code CRON_TZ=<zone>} or
 * {@code TZ=<zone>}; otherwise in the operator's zone (Go's {@code time.Local}).
 *
 * <p>Built on Spring's {@link CronExpression}, with the one rule where Unix cron (and robfig)
 * differ from it: when both day fields are restricted, a day that matches either one runs
 * ({@code 0 0 1 * 1}: the first of the month and every Monday), where Spring requires both. The
 * field syntax Spring accepts beyond Unix cron ({@code L}, {@code W}, {@code #}, day of week 7) is
 * accepted too. Immutable.
 */
final class Schedule {

    /** As robfig's {@code getNextSchedule}: a start this far behind is a wedged clock, not a backlog. */
    static final int MAX_MISSED_STARTS = 100;

    private static final Map<String, String> DESCRIPTORS = Map.of(
            "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0", "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");
    private static final Pattern GO_DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS_PER_UNIT = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L,
            "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    /** Each gives candidate times; the schedule's next time is the earliest. Empty for {@code @every}. */
    private final List<CronExpression> expressions;
    private final @Nullable Duration every;
    private final ZoneId zone;

    private Schedule(List<CronExpression> expressions, @Nullable Duration every, ZoneId zone) {
        this.expressions = expressions;
        this.every = every;
        this.zone = zone;
    }

    /**
     * Reads {@code spec}; {@code zone} is the zone of a spec without {@code CRON_TZ=}.
     *
     * @throws IllegalArgumentException with what is wrong, in the original's words where it has them
     *     ({@code Expected exactly 5 fields, found 1: hourly})
     */
    static Schedule parse(@Nullable String spec, ZoneId zone) {
        String rest = spec == null ? "" : spec.trim();
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("Empty spec string");
        }
        if (rest.startsWith("TZ=") || rest.startsWith("CRON_TZ=")) {
            int space = rest.indexOf(' ');
            String name = rest.substring(rest.indexOf('=') + 1, space < 0 ? rest.length() : space);
            try {
                zone = ZoneId.of(name);
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("Provided bad location " + name + ": " + e.getMessage());
            }
            rest = space < 0 ? "" : rest.substring(space).trim();
        }
        if (rest.startsWith("@every ")) {
            return new Schedule(List.of(), every(rest.substring("@every ".length()).trim()), zone);
        }
        if (rest.startsWith("@")) {
            String fields = DESCRIPTORS.get(rest);
            if (fields == null) {
                throw new IllegalArgumentException("Unrecognized descriptor: " + rest);
            }
            rest = fields;
        }
        String[] fields = rest.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("Expected exactly 5 fields, found " + fields.length + ": " + rest);
        }
        String minutes = fields[0], hours = fields[1], days = fields[2], months = fields[3], weekdays = fields[4];
        List<String> crons = unrestricted(days) || unrestricted(weekdays)
                ? List.of(cron(minutes, hours, days, months, weekdays))
                // Unix cron's rule: either day field may match
                : List.of(cron(minutes, hours, days, months, "*"), cron(minutes, hours, "*", months, weekdays));
        try {
            return new Schedule(crons.stream().map(CronExpression::parse).toList(), null, zone);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid schedule " + rest + ": " + e.getMessage(), e);
        }
    }

    /** The first time of this schedule strictly after {@code after}; null if there is none. */
    @Nullable Instant next(Instant after) {
        if (every != null) {
            return after.truncatedTo(ChronoUnit.SECONDS).plus(every);
        }
        ZonedDateTime from = after.atZone(zone);
        return expressions.stream().map(expression -> expression.next(from)).filter(Objects::nonNull)
                .map(ZonedDateTime::toInstant).min(Instant::compareTo).orElse(null);
    }

    /** The zone the times of this schedule are in. */
    ZoneId zone() {
        return zone;
    }

    /**
     * The original's {@code getNextSchedule}: the latest start after {@code earliest} and at or
     * before {@code now} (null: none was missed), and the next one after {@code now}.
     *
     * @throws IllegalStateException with the original's message when more than
     *     {@value #MAX_MISSED_STARTS} starts were missed
     */
    Starts starts(Instant earliest, Instant now) {
        if (earliest.isAfter(now)) {
            return new Starts(null, next(now));
        }
        Instant lastMissed = null;
        int missed = 0;
        for (Instant start = next(earliest); start != null && !start.isAfter(now); start = next(start)) {
            lastMissed = start;
            if (++missed > MAX_MISSED_STARTS) {
                throw new IllegalStateException("Too many missed start times (> " + MAX_MISSED_STARTS
                        + "). Set or decrease .spec.startingDeadlineSeconds or check clock skew.");
            }
        }
        return new Starts(lastMissed, next(now));
    }

    /** A missed start to run now, if any, and the next start, if any. */
    record Starts(@Nullable Instant missed, @Nullable Instant next) {
    }

    private static boolean unrestricted(String field) {
        return field.equals("*") || field.equals("?");
    }

    private static String cron(String minutes, String hours, String days, String months, String weekdays) {
        return String.join(" ", "0", minutes, hours, days, months, weekdays);
    }

    /** robfig's {@code Every}: a Go duration, rounded down to whole seconds, at least one second. */
    private static Duration every(String text) {
        Matcher part = GO_DURATION_PART.matcher(text);
        BigDecimal nanos = BigDecimal.ZERO;
        int end = 0;
        while (part.find() && part.start() == end) {
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(part.group(2)))));
            end = part.end();
        }
        if (text.isEmpty() || end != text.length()) {
            throw new IllegalArgumentException("Failed to parse duration @every " + text + ": invalid duration " + text);
        }
        Duration duration = Duration.ofNanos(nanos.longValue()).truncatedTo(ChronoUnit.SECONDS);
        return duration.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : duration;
    }
}
