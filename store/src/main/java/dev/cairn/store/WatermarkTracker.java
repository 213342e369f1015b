package dev.cairn.store;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * What this process knows of the projector's progress. The projector (in process) or a poller of the database
 * (in a separate query or ingest process) reports each committed watermark here; writers wait here for their
 * event to become visible ({@code ack=visible}) and the query side reads Consistent-Through from it.
 */
public final class WatermarkTracker {
    /**
     * How far before the moment the projector last found the log drained Consistent-Through is set: covers a
     * statement stamped by the sequencer just before that moment but appended just after it.
     */
    private static final long DRAINED_MARGIN_MILLIS = 50;

    private final Clock clock;
    private final ConcurrentSkipListMap<Long, Waiter> waiters = new ConcurrentSkipListMap<>();
    private volatile Watermark current;
    private volatile long drainedAtMillis;
    private volatile Runnable onWaiter = () -> { };
    /** Why the watermark cannot move now, or null. */
    private volatile String stall;

    public WatermarkTracker(Watermark initial, Clock clock) {
        this.current = initial;
        this.clock = clock;
    }

    public Watermark current() {
        return current;
    }

    /** Called after each commit of the projector; completes every waiter at or below the new log index. */
    public void advanced(Watermark w) {
        current = w;
        // Remove exactly the waiters completed here: clearing a live headMap view could also drop a waiter
        // registered meanwhile, whose own re-check would then find nothing to complete (a lost acknowledgement).
        Map.Entry<Long, Waiter> e;
        while ((e = waiters.firstEntry()) != null && e.getKey() <= w.logIndex()) {
            if (waiters.remove(e.getKey(), e.getValue())) {
                e.getValue().complete(w);
            }
        }
    }

    /** Sets what runs when a writer starts waiting for visibility (an in-process projector's wake-up). */
    public void onWaiter(Runnable r) {
        onWaiter = r;
    }

    /** Whether a writer waits for an entry to become visible. */
    public boolean awaited() {
        return !waiters.isEmpty();
    }

    /** Called when the projector found no entry after the watermark; {@code sinceMillis} is read before looking. */
    public void drained(long sinceMillis) {
        drainedAtMillis = sinceMillis;
    }

    /** Completes once the projector has applied the log entry at {@code logIndex}. */
    public CompletableFuture<Watermark> awaitVisible(long logIndex) {
        Watermark w = current;
        if (w.logIndex() >= logIndex) {
            return CompletableFuture.completedFuture(w);
        }
        Waiter f = waiters.computeIfAbsent(logIndex, k -> new Waiter(System.nanoTime()));
        // The projector may have passed the index between the check and the registration: it sets current before
        // it drains the waiters, so either it sees this waiter or this re-check sees its watermark.
        Watermark again = current;
        if (again.logIndex() >= logIndex) {
            waiters.remove(logIndex, f);
            f.complete(again);
        } else {
            onWaiter.run();
        }
        return f;
    }

    /** The X-Experience-API-Consistent-Through time: every statement stored up to it is visible. */
    public long consistentThroughMillis() {
        long drained = drainedAtMillis - DRAINED_MARGIN_MILLIS;
        return Math.max(current.storedMillis(), drained);
    }

    /**
     * Reports why the watermark cannot move now (as {@code "projector: database unreachable since ..."}), or with
     * null that it moves again.
     */
    public void stalled(String why) {
        stall = why;
    }

    /** Why the watermark cannot move now, or null while nothing is known to hold it back. */
    public String stall() {
        return stall;
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Fails, with {@link NotVisibleYet}, every wait that began at least {@code timeoutNanos} ago. Waits begin roughly
     * in log order, so it looks from the oldest entry and stops at the first wait younger than that.
     */
    public void expireWaits(long timeoutNanos) {
        long now = System.nanoTime();
        Map.Entry<Long, Waiter> e;
        while ((e = waiters.firstEntry()) != null && now - e.getValue().beganNanos >= timeoutNanos) {
            if (waiters.remove(e.getKey(), e.getValue())) {
                e.getValue().completeExceptionally(NotVisibleYet.INSTANCE);
            }
        }
    }

    /** A wait for one log entry, with when it began. */
    private static final class Waiter extends CompletableFuture<Watermark> {
        final long beganNanos;

        Waiter(long beganNanos) {
            this.beganNanos = beganNanos;
        }
    }

    /** A wait for visibility gave up: the entry is in the log (durable) but not yet applied. */
    public static final class NotVisibleYet extends RuntimeException {
        static final NotVisibleYet INSTANCE = new NotVisibleYet();

        private NotVisibleYet() {
            super("not visible yet", null, false, false);
        }
    }
}
