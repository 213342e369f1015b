package dev.cairn.projector;

import dev.cairn.log.EventLog;
import dev.cairn.store.Database;
import dev.cairn.store.StoreException;
import dev.cairn.store.Watermark;
import dev.cairn.store.WatermarkTracker;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link WatermarkTracker} in a process that has no projector of its own (a separate ingest or query
 * process): every few milliseconds it reads the committed watermark from the database and compares it with the
 * end of the log, so {@code ack=visible} and Consistent-Through work across processes.
 *
 * <p>While the database cannot be read, it tries again after a pause that doubles from 100 ms up to 2 s, logs the
 * outage once when it starts and once when it ends, and reports it to the tracker meanwhile (health says why).
 */
public final class WatermarkPoller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WatermarkPoller.class);
    private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final EventLog log;
    private final Database db;
    private final WatermarkTracker tracker;
    private final long intervalNanos;
    private final Thread thread;
    private volatile boolean running = true;

    public WatermarkPoller(EventLog log, Database db, WatermarkTracker tracker, long intervalMillis) {
        this.log = log;
        this.db = db;
        this.tracker = tracker;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.thread = new Thread(this::run, "cairn-watermark-poller");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** One poll: read the clock first, so a drained log vouches only for statements stamped before it. */
    void poll() {
        long now = tracker.clock().millis();
        long logEnd = log.lastPosition();
        Watermark w = db.watermark();
        if (w.logIndex() != tracker.current().logIndex()) {
            tracker.advanced(w);
        }
        if (w.logIndex() >= logEnd) {
            tracker.drained(now);
        }
    }

    private void run() {
        long failures = 0;
        long failingSince = 0;
        while (running) {
            try {
                poll();
                if (failures > 0) {
                    LOG.info("the watermark can be read again, after {} failed attempts over {} s", failures,
                            (System.currentTimeMillis() - failingSince) / 1000);
                    failures = 0;
                    tracker.stalled(null);
                }
                LockSupport.parkNanos(intervalNanos);
            } catch (StoreException e) {
                if (failures++ == 0) {
                    failingSince = System.currentTimeMillis();
                    String what = Database.connectionLost(e) ? "database unreachable" : "failing";
                    tracker.stalled("watermark poll: " + what + " since " + Instant.ofEpochMilli(failingSince) + " ("
                            + e.getMessage() + ")");
                    LOG.warn("watermark poll failed: {}; retrying every {} s at most until it works (logged again"
                            + " when it does)", e.getMessage(), TimeUnit.NANOSECONDS.toSeconds(MAX_RETRY_NANOS));
                }
                LockSupport.parkNanos(Math.min(MAX_RETRY_NANOS, MIN_RETRY_NANOS << Math.min(failures - 1, 20)));
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
