package dev.kubeloop.acceptance.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The schedules the original accepts (robfig/cron's ParseStandard) and what it makes of them. */
class ScheduleTest {

    /** A Friday. */
    private static final Instant FRIDAY = Instant.parse("2026-11-27T10:07:00Z");

    @Test
    void fiveFieldsInTheOperatorsZone() {
        assertThat(next("*/15 * * * *", FRIDAY)).isEqualTo("2026-11-27T10:15:00Z");
        assertThat(next("1 * * * *", FRIDAY)).isEqualTo("2026-11-27T11:01:00Z");
        assertThat(next("0 0 * * MON", FRIDAY)).isEqualTo("2026-11-30T00:00:00Z");
    }

    @Test
    void whenBothDayFieldsAreRestrictedEitherMatches() {
        // Unix cron and robfig: the 1st of the month and every Monday; Spring alone would want a Monday the 1st
        assertThat(next("0 0 1 * 1", FRIDAY)).isEqualTo("2026-11-30T00:00:00Z");
        assertThat(next("0 0 1 * 1", Instant.parse("2026-11-30T00:00:00Z"))).isEqualTo("2026-12-01T00:00:00Z");
    }

    @Test
    void descriptors() {
        assertThat(next("@hourly", FRIDAY)).isEqualTo("2026-11-27T11:00:00Z");
        assertThat(next("@daily", FRIDAY)).isEqualTo("2026-11-28T00:00:00Z");
        assertThat(next("@weekly", FRIDAY)).isEqualTo("2026-11-29T00:00:00Z");
        assertThat(next("@monthly", FRIDAY)).isEqualTo("2026-12-01T00:00:00Z");
        assertThat(next("@yearly", FRIDAY)).isEqualTo("2027-01-01T00:00:00Z");
    }

    @Test
    void everyGoDurationRoundedDownToSecondsAndAtLeastOne() {
        assertThat(next("@every 1h30m", FRIDAY)).isEqualTo("2026-11-27T11:37:00Z");
        assertThat(next("@every 1.5s", FRIDAY.plusMillis(700))).isEqualTo("2026-11-27T10:07:01Z");
        assertThat(next("@every 500ms", FRIDAY)).isEqualTo("2026-11-27T10:07:01Z");
    }

    @Test
    void aZoneOfItsOwn() {
        // Berlin is UTC+1 in November
        assertThat(next("CRON_TZ=Europe/Berlin 0 9 * * *", FRIDAY)).isEqualTo("2026-11-28T08:00:00Z");
        assertThat(next("TZ=Europe/Berlin 0 12 * * *", FRIDAY)).isEqualTo("2026-11-27T11:00:00Z");
    }

    @Test
    void whatDoesNotParseSaysWhy() {
        assertRefused(null, "Empty spec string");
        assertRefused("  ", "Empty spec string");
        assertRefused("invalid-cron-schedule", "Expected exactly 5 fields, found 1: invalid-cron-schedule");
        assertRefused("0 * * * * *", "Expected exactly 5 fields, found 6: 0 * * * * *");
        assertRefused("@fortnightly", "Unrecognized descriptor: @fortnightly");
        assertRefused("@every soon", "Failed to parse duration @every soon");
        assertRefused("CRON_TZ=Nowhere/City 0 * * * *", "Provided bad location Nowhere/City");
        assertRefused("61 * * * *", "Invalid schedule 61 * * * *");
    }

    @Test
    void startsGiveTheLatestMissedOneAndTheNext() {
        Schedule hourly = Schedule.parse("0 * * * *", ZoneOffset.UTC);

        Schedule.Starts starts = hourly.starts(Instant.parse("2026-11-27T07:30:00Z"), FRIDAY);

        assertThat(starts.missed()).isEqualTo("2026-11-27T10:00:00Z");
        assertThat(starts.next()).isEqualTo("2026-11-27T11:00:00Z");
        assertThat(hourly.starts(Instant.parse("2026-11-27T10:00:00Z"), FRIDAY).missed()).as("that one ran").isNull();
        assertThat(hourly.starts(FRIDAY.plusSeconds(60), FRIDAY).missed()).as("created after now").isNull();
    }

    @Test
    void moreThanAHundredMissedStartsAreAWedgedClock() {
        Schedule everyMinute = Schedule.parse("* * * * *", ZoneOffset.UTC);

        assertThat(everyMinute.starts(FRIDAY.minusSeconds(100 * 60), FRIDAY).missed()).isEqualTo(FRIDAY);
        assertThatThrownBy(() -> everyMinute.starts(FRIDAY.minusSeconds(101 * 60), FRIDAY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check "
                        + "clock skew.");
    }

    private static Instant next(String spec, Instant after) {
        return Schedule.parse(spec, ZoneOffset.UTC).next(after);
    }

    private static void assertRefused(String spec, String message) {
        assertThatThrownBy(() -> Schedule.parse(spec, ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }
}
