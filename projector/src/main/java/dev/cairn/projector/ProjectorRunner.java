package dev.cairn.projector;

import dev.cairn.log.BadLogEntryException;
import dev.cairn.store.Database;
import dev.cairn.store.FencedException;
import java.time.Instant;
import dev.cairn.store.ProjectionWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a {@link Projector} on its own thread, in one of two ways:
 *
 * <ul>
 *   <li>{@link #besideIngest}: the sequencer of the same process calls {@link #wake()} after each sync, so a pass
 *       that finds nothing parks until then (or {@link #WAKE_WAIT_NANOS} at most). Polling instead cost a single
 *       writer's statement ~0.4 ms of CPU in passes that found nothing. After a pass that reached the end of the log
 *       the runner also lingers up to {@code linger} before the next one unless a writer waits for visibility
 *       ({@code ack=visible}): a stream of small durable writes is then applied in a few larger transactions instead
 *       of one per ring batch, each of which costs its own commit (a write-ahead log frame per page touched). A
 *       writer that starts waiting ends the linger at once, as does a task for the projector's thread
 *       ({@link #exclusive}).</li>
 *   <li>{@link #alone}: nothing tells it of new entries (the ingest runs in another process), so when a pass finds
 *       nothing it backs off from 20 µs up to 2 ms of parking: an idle projector costs no core while a burst is
 *       picked up quickly.</li>
 * </ul>
 *
 * <p>A failed pass is retried after a pause that doubles from 100 ms up to 2 s, which wake-ups do not cut short.
 * A run of failures (the database unreachable, say) is logged once when it starts and once when it ends, and
 * reported to the tracker meanwhile, so health says why the watermark does not move.
 */
public final class ProjectorRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectorRunner.class);
    private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /**
     * The longest park of a runner that the sequencer wakes: entries it did not wake for (none, unless the log is
     * appended to outside the sequencer) wait this much, and so does the time Consistent-Through reports when idle.
     */
    static final long WAKE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final Projector projector;
    private final long lingerNanos;
    /** The first and the longest park after a pass that found nothing. */
    private final long firstParkNanos;
    private final long maxParkNanos;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Tasks that wait to run on the projector's thread between two passes ({@link #exclusive}). */
    private final ConcurrentLinkedQueue<Exclusive<?>> exclusive = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;
    private volatile boolean lingering;
    private volatile Throwable failure;
    /** Failed passes since the last one that worked. */
    private long failures;
    private long failingSinceMillis;
    /** Passes made, for the tests of how often an idle runner looks. */
    private volatile long passes;

    private ProjectorRunner(Projector projector, long lingerNanos, long firstParkNanos, long maxParkNanos) {
        this.projector = projector;
        this.lingerNanos = lingerNanos;
        this.firstParkNanos = firstParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.thread = new Thread(this::run, "cairn-projector");
        this.thread.setDaemon(true);
        if (lingerNanos > 0) {
            projector.onWaiter(this::endLinger); // a lingering runner must hear of every writer that starts waiting
        }
    }

    /**
     * A runner in the process of the sequencer that appends the log, which calls {@link #wake()} after each sync.
     *
     * @param lingerNanos how long to let small writes gather when no writer waits for visibility; 0 for never
     */
    public static ProjectorRunner besideIngest(Projector projector, long lingerNanos) {
        return new ProjectorRunner(projector, lingerNanos, WAKE_WAIT_NANOS, WAKE_WAIT_NANOS);
    }

    /** A runner whose log is appended by another process: it looks for new entries on its own. */
    public static ProjectorRunner alone(Projector projector) {
        return new ProjectorRunner(projector, 0, MIN_PARK_NANOS, MAX_PARK_NANOS);
    }

    public void start() {
        thread.start();
    }

    /** Cuts the current idle wait short. */
    public void wake() {
        LockSupport.unpark(thread);
    }

    /** Passes made so far. */
    long passes() {
        return passes;
    }

    /** A task of {@link #exclusive}: it runs once the watermark has passed {@code after}. */
    private record Exclusive<T>(long after, Function<ProjectionWriter, T> task, CompletableFuture<T> done) {
        void run(Projector projector) {
            try {
                done.complete(projector.exclusive(task));
            } catch (RuntimeException | Error e) { // whatever it was, the one who waits for it must hear of it
                done.completeExceptionally(e);
                if (e instanceof Error) {
                    throw e;
                }
            }
        }
    }

    /**
     * Runs {@code task} on the projector's thread, with its writer, between two of its transactions, once the
     * watermark has passed log position {@code after}: an erasure that must see every write acknowledged before it
     * was asked for, and that no projection may interleave with. Tasks run one at a time, in the order they came.
     */
    public <T> CompletableFuture<T> exclusive(long after, Function<ProjectionWriter, T> task) {
        Exclusive<T> x = new Exclusive<>(after, task, new CompletableFuture<>());
        exclusive.add(x);
        if (!running || failure != null) {
            exclusive.remove(x);
            x.done().completeExceptionally(new IllegalStateException("the projector is not running"));
        }
        wake();
        return x.done();
    }

    /** Runs the oldest waiting task if the watermark has passed its position; whether one ran. */
    private boolean runExclusive() {
        Exclusive<?> x = exclusive.peek();
        if (x == null || projector.watermark().logIndex() < x.after()) {
            return false;
        }
        exclusive.poll();
        x.run(projector);
        return true;
    }

    /** The error that stopped the projector, or null while it runs. */
    public Throwable failure() {
        return failure;
    }

    private void run() {
        long park = firstParkNanos;
        try {
            while (running) {
                int done;
                passes++;
                try {
                    done = projector.doWork();
                } catch (FencedException | BadLogEntryException e) {
                    throw e; // permanent: another projector writes here, or the log holds an entry it cannot apply
                } catch (RuntimeException e) {
                    failed(e);
                    continue;
                }
                if (failures > 0) {
                    recovered();
                }
                if (runExclusive()) {
                    continue;
                }
                if (done > 0) {
                    park = firstParkNanos;
                    if (lingerNanos > 0 && projector.caughtUp()) {
                        linger();
                    }
                } else {
                    LockSupport.parkNanos(park);
                    park = Math.min(park * 2, maxParkNanos);
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
            for (Exclusive<?> x; (x = exclusive.poll()) != null; ) {
                x.done().completeExceptionally(new IllegalStateException("the projector stopped before the task ran"));
            }
            stopped.countDown();
        }
    }

    /** Logs and reports the first failure of a run, and pauses before the next attempt. */
    private void failed(RuntimeException e) {
        if (failures++ == 0) {
            failingSinceMillis = System.currentTimeMillis();
            String what = Database.connectionLost(e) ? "database unreachable" : "failing";
            projector.stalled("projector: " + what + " since " + Instant.ofEpochMilli(failingSinceMillis) + " ("
                    + e.getMessage() + ")");
            LOG.error("projection failed at watermark {}; retrying every {} s at most until it works (logged again"
                    + " when it does)", projector.watermark(), TimeUnit.NANOSECONDS.toSeconds(MAX_RETRY_NANOS), e);
        } else {
            LOG.debug("projection failed again ({} times): {}", failures, e.getMessage());
        }
        long pause = Math.min(MAX_RETRY_NANOS, MIN_RETRY_NANOS << Math.min(failures - 1, 20));
        long deadline = System.nanoTime() + pause;
        long left;
        while (running && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left); // the sequencer's wake-ups must not turn the pause into a spin
        }
    }

    private void recovered() {
        LOG.info("projection works again at watermark {}, after {} failed attempts over {} s", projector.watermark(),
                failures, (System.currentTimeMillis() - failingSinceMillis) / 1000);
        failures = 0;
        projector.stalled(null);
    }

    private void linger() {
        long deadline = System.nanoTime() + lingerNanos;
        long left;
        lingering = true; // before looking for waiters: a waiter registered after the look sees it and wakes us
        while (running && !projector.awaited() && exclusive.isEmpty()
                && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
        lingering = false;
    }

    /** Ends a linger: a writer has started to wait for visibility. */
    private void endLinger() {
        if (lingering) {
            LockSupport.unpark(thread);
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
        return applyAll(projector, progress);
    }

    /** Applies the log from the projector's watermark to the end; returns the number of log entries applied. */
    public static long applyAll(Projector projector, ReplayProgress progress) {
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
