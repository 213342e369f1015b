package dev.cairn.projector;

import dev.cairn.log.EventLog;
import dev.cairn.store.Database;
import dev.cairn.store.StoreException;
import dev.cairn.store.Watermark;
import dev.cairn.store.WatermarkTracker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link WatermarkTracker} in a process that has no projector of its own (a separate ingest or query
 * process): every few milliseconds it reads the committed watermark from the database and compares it with the
 * end of the log, so {@code ack=visible} and Consistent-Through work across processes.
 */
public final class WatermarkPoller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WatermarkPoller.class);

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
        long logEnd = log.lastIndex();
        Watermark w = db.watermark();
        if (w.logIndex() != tracker.current().logIndex()) {
            tracker.advanced(w);
        }
        if (w.logIndex() >= logEnd) {
            tracker.drained(now);
        }
    }

    private void run() {
        while (running) {
            try {
                poll();
            } catch (StoreException e) {
                LOG.warn("cannot read the watermark: {}", e.getMessage());
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
            LockSupport.parkNanos(intervalNanos);
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
