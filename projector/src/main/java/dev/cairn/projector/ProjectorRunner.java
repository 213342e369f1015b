package dev.cairn.projector;

import dev.cairn.store.Database;
import dev.cairn.store.FencedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a {@link Projector} on its own thread. When a pass finds nothing it backs off from 20 µs up to 2 ms of
 * parking, so an idle projector costs no core while a burst is picked up quickly; {@link #wake()} cuts the wait
 * short when the sequencer has just synced new entries.
 */
public final class ProjectorRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectorRunner.class);
    private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Projector projector;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile Throwable failure;

    public ProjectorRunner(Projector projector) {
        this.projector = projector;
        this.thread = new Thread(this::run, "cairn-projector");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Cuts the current idle wait short. */
    public void wake() {
        LockSupport.unpark(thread);
    }

    /** The error that stopped the projector, or null while it runs. */
    public Throwable failure() {
        return failure;
    }

    private void run() {
        long park = MIN_PARK_NANOS;
        try {
            while (running) {
                int done;
                try {
                    done = projector.doWork();
                } catch (FencedException e) {
                    throw e;
                } catch (RuntimeException e) {
                    LOG.error("projection failed at watermark {}; retrying in 1 s", projector.watermark(), e);
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                    continue;
                }
                if (done > 0) {
                    park = MIN_PARK_NANOS;
                } else {
                    LockSupport.parkNanos(park);
                    park = Math.min(park * 2, MAX_PARK_NANOS);
                }
            }
            // Apply what the log already holds before stopping, so a clean shutdown leaves no lag.
            while (projector.doWork() > 0) {
                Thread.onSpinWait();
            }
        } catch (Throwable t) {
            failure = t;
            LOG.error("projector stopped: {}", t.getMessage(), t);
        } finally {
            stopped.countDown();
        }
    }

    @Override
    public void close() {
        running = false;
        wake();
        try {
            if (!stopped.await(30, TimeUnit.SECONDS)) {
                LOG.warn("projector did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        projector.close();
    }

    /** Rebuilds every projected table from the log's start; returns the number of log entries applied. */
    public static long rebuild(Projector projector, Database db, ReplayProgress progress) {
        projector.dropProjection(db);
        long entries = 0;
        int n;
        while ((n = projector.doWork()) > 0) {
            entries += n;
            progress.update(entries, projector.watermark().seq());
        }
        progress.done(entries, projector.watermark().seq());
        return entries;
    }
}
