package dev.cairn.erase;

import dev.cairn.log.EventLog;
import dev.cairn.store.ErasureRequests;
import dev.cairn.store.ErasureStore;
import dev.cairn.xapi.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces a retention period in a running Cairn (the {@code retention} setting): in the process that projects, every
 * {@code checkMillis} (the first time {@value #FIRST_CHECK_MILLIS} ms after start), asks for the erasure of the
 * statements stored longer ago than the period ({@link RetentionCutoff}), as {@code POST /admin/erasures} with
 * {@code storedBefore} does, when the tables hold one, and one younger (it never empties the store on its own: a clock
 * set far ahead would ask for that too), and no erasure is waiting; {@link ErasureRequestRunner} runs it beside the
 * running ingest and readers, and the erasure is recorded as any other ({@code GET /admin/erasures}).
 */
public final class RetentionSchedule implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionSchedule.class);
    static final long FIRST_CHECK_MILLIS = 10_000;
    /** How far ahead of the time elapsed since start the wall clock may be before a check says so. */
    private static final long CLOCK_WARNING_MILLIS = 60_000;

    private final Duration period;
    private final long checkMillis;
    private final RetentionCutoff cutoff;
    private final ErasureStore erasures;
    private final ErasureRequests requests;
    private final EventLog log;
    private final Runnable wake;
    private final ScheduledExecutorService thread = DaemonThread.named("cairn-retention");

    /**
     * @param nanos the monotonic clock ({@code System::nanoTime}), which bounds how far the wall clock may move the
     *              period's end ({@link RetentionCutoff})
     * @param wake  tells the erasure runner of this process that a request is waiting
     */
    public RetentionSchedule(Duration period, long checkMillis, Clock clock, LongSupplier nanos, ErasureStore erasures,
                             ErasureRequests requests, EventLog log, Runnable wake) {
        this.period = period;
        this.checkMillis = checkMillis;
        this.cutoff = new RetentionCutoff(period, clock::millis, nanos);
        this.erasures = erasures;
        this.requests = requests;
        this.log = log;
        this.wake = wake;
    }

    public void start() {
        thread.scheduleWithFixedDelay(this::check, FIRST_CHECK_MILLIS, checkMillis, TimeUnit.MILLISECONDS);
    }

    private void check() {
        long before = cutoff.storedBefore();
        long ahead = cutoff.wallAheadMillis();
        if (ahead > CLOCK_WARNING_MILLIS) {
            LOG.warn("retention {}: the system clock is {} s ahead of the time elapsed since this process started; the "
                    + "period is counted from the elapsed time (statements stored before {}) until the next start",
                    period, ahead / 1000, Timestamps.format(before));
        }
        try {
            if (!requests.pending().isEmpty() || !erasures.anyStoredBefore(before)) {
                return;
            }
            if (!erasures.anyStoredFrom(before)) { // a clock set far ahead looks the same: never empty the store
                LOG.warn("retention {}: every statement was stored before {}, so none is erased until a younger one "
                        + "is stored; if the system clock is right, POST /admin/erasures {\"storedBefore\":\"{}\"} erases "
                        + "them now",
                        period, Timestamps.format(before), Timestamps.format(before));
                return;
            }
            if (!erasures.deletesLeaveNoCopies()) { // refused online each time, after a whole plan: say so instead
                LOG.warn("retention {}: the statements stored before {} are not erased: this database was created by an "
                        + "earlier release and may keep stale copies of rows; run cairn erase --stored-before {} once "
                        + "with the processes stopped (it builds a new one)", period, Timestamps.format(before),
                        Timestamps.format(before));
                return;
            }
            String id = Erasures.ask(erasures, requests, log.lastSyncedPosition(),
                    new ErasurePlan.Request(List.of(), Set.of(), before));
            LOG.info("retention {}: erasure {} asked of the statements stored before {}", period, id,
                    Timestamps.format(before));
            wake.run();
        } catch (RuntimeException e) {
            LOG.warn("retention {}: the statements stored before {} could not be erased now; trying again in {} ms: {}",
                    period, Timestamps.format(before), checkMillis, e.getMessage());
        } catch (Error e) { // it ends the schedule, which the executor would otherwise do without a word
            LOG.error("retention {}: no longer enforced by this process until it starts again", period, e);
            throw e;
        }
    }

    @Override
    public void close() {
        DaemonThread.stop(thread);
    }
}
