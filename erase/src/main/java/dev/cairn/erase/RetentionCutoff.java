package dev.cairn.erase;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The end of a retention period as a running process can vouch for it: the wall clock's time less the period, but
 * never later than the wall clock's time at start plus the time elapsed since on the monotonic clock. A wall clock
 * set forward (by hand, or a host that corrects a wrong time) would otherwise make the period erase statements younger
 * than it, all of them after a jump of the period's length; one set back only delays erasure, and the next start
 * counts from the clock as it is then.
 */
final class RetentionCutoff {
    private final Duration period;
    private final LongSupplier wallMillis;
    private final LongSupplier nanos;
    private final long startMillis;
    private final long startNanos;

    /**
     * @param wallMillis the wall clock (ms since the epoch: {@code Clock::millis})
     * @param nanos      the monotonic clock ({@code System::nanoTime})
     */
    RetentionCutoff(Duration period, LongSupplier wallMillis, LongSupplier nanos) {
        this.period = period;
        this.wallMillis = wallMillis;
        this.nanos = nanos;
        this.startMillis = wallMillis.getAsLong();
        this.startNanos = nanos.getAsLong();
    }

    /** The statements stored before this time (ms since the epoch) are past the period. */
    long storedBefore() {
        return Math.min(wallMillis.getAsLong(), elapsedMillis()) - period.toMillis();
    }

    /** How far (ms) the wall clock is ahead of the time elapsed since start; 0 when it is not. */
    long wallAheadMillis() {
        return Math.max(0, wallMillis.getAsLong() - elapsedMillis());
    }

    private long elapsedMillis() {
        return startMillis + TimeUnit.NANOSECONDS.toMillis(nanos.getAsLong() - startNanos);
    }
}
