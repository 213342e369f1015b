package dev.cairn.erase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A retention period ends where the wall clock says, unless the wall clock has run ahead of the time elapsed. */
class RetentionCutoffTest {
    private static final Duration DAY = Duration.ofDays(1);
    private static final long START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    /** A wall clock and a monotonic clock that tests move apart. */
    private static final class Clocks {
        long wallMillis = START;
        long nanos = 5_000_000_000L;

        void pass(Duration d) {
            wallMillis += d.toMillis();
            nanos += d.toNanos();
        }
    }

    private final Clocks clocks = new Clocks();
    private final RetentionCutoff cutoff = new RetentionCutoff(DAY, () -> clocks.wallMillis, () -> clocks.nanos);

    @Test
    void thePeriodEndsAPeriodBeforeNow() {
        clocks.pass(Duration.ofHours(3));
        assertEquals(START + TimeUnit.HOURS.toMillis(3) - DAY.toMillis(), cutoff.storedBefore());
        assertEquals(0, cutoff.wallAheadMillis());
    }

    @Test
    void aWallClockSetForwardDoesNotEraseStatementsYoungerThanThePeriod() {
        clocks.pass(Duration.ofMinutes(10));
        clocks.wallMillis += TimeUnit.DAYS.toMillis(365);
        assertEquals(START + TimeUnit.MINUTES.toMillis(10) - DAY.toMillis(), cutoff.storedBefore(),
                "counted from the 10 minutes elapsed, not from a year ahead");
        assertEquals(TimeUnit.DAYS.toMillis(365), cutoff.wallAheadMillis());
    }

    @Test
    void aWallClockSetBackOnlyDelaysErasure() {
        clocks.pass(Duration.ofHours(2));
        clocks.wallMillis -= TimeUnit.HOURS.toMillis(1);
        assertEquals(START + TimeUnit.HOURS.toMillis(1) - DAY.toMillis(), cutoff.storedBefore());
        assertEquals(0, cutoff.wallAheadMillis());
    }
}
