package dev.cairn.erase;

import dev.cairn.log.EventLog;
import dev.cairn.projector.ProjectorRunner;
import dev.cairn.store.ErasureRequests;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.StoreException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the erasures asked of a running Cairn ({@link ErasureRequests}), in the process that projects: each on the
 * projector's thread ({@link ProjectorRunner#exclusive}) once the watermark has passed the log's end as of
 * {@value #SEQUENCER_SEES_REQUEST_MILLIS} ms after it found the request (by then every sequencer holds back merges into
 * the people's documents, which would carry what is erased into a new entry), one at a time, oldest first, then says
 * what became of it. It looks for requests every {@value #POLL_MILLIS} ms, and at
 * once when the process that took one is this one ({@link #wake()}). A request left pending by a process killed mid-way
 * runs when the next one starts (a killed erasure's pending mark stops that start until 'cairn erase' has finished
 * it; the request then finds it recorded).
 */
public final class ErasureRequestRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ErasureRequestRunner.class);
    static final long POLL_MILLIS = 200;
    /**
     * How long after a request is stored every sequencer has read it (they read the agents being erased again when
     * what they read is 100 ms old: {@code Sequencer}), with a margin.
     */
    static final long SEQUENCER_SEES_REQUEST_MILLIS = 250;

    private final ErasureRequests requests;
    private final ErasureStore erasures;
    private final OnlineErasure online;
    private final ProjectorRunner projector;
    private final EventLog log;
    private final ScheduledExecutorService thread = DaemonThread.named("cairn-erasure-requests");

    public ErasureRequestRunner(ErasureRequests requests, ErasureStore erasures, OnlineErasure online,
                                ProjectorRunner projector, EventLog log) {
        this.requests = requests;
        this.erasures = erasures;
        this.online = online;
        this.projector = projector;
        this.log = log;
    }

    public void start() {
        thread.scheduleWithFixedDelay(this::runPending, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Looks for requests now: one was just taken in this process. */
    public void wake() {
        thread.execute(this::runPending);
    }

    private void runPending() {
        try {
            for (ErasureRequests.Pending p : requests.pending()) {
                run(p);
            }
        } catch (RuntimeException e) {
            LOG.warn("erasure requests could not be read; looking again in {} ms: {}", POLL_MILLIS, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run(ErasureRequests.Pending p) throws InterruptedException {
        String id = p.erasureId();
        if (erasures.recorded(id)) { // run before a kill, and finished by 'cairn erase'
            finish(id, ErasureRequests.Status.ERASED, null);
            return;
        }
        PendingErasure.Interrupted asked;
        try {
            asked = PendingErasure.decode(p.request());
        } catch (IOException | IllegalArgumentException e) {
            finish(id, ErasureRequests.Status.FAILED, "the request does not read: " + e.getMessage());
            return;
        }
        // The sequencers hold back merges into the people's documents once they have read the request, which they do
        // when what they read is 100 ms old: waited for from here, where the request is surely stored (its own asked
        // time is taken before its insert commits, on another process's clock), the erasure then covers whatever
        // the log held by then.
        Thread.sleep(SEQUENCER_SEES_REQUEST_MILLIS);
        long after = Math.max(p.afterPosition(), log.lastSyncedPosition());
        try {
            OnlineErasure.Outcome o = projector.exclusive(after,
                    writer -> online.run(writer, id, asked.request())).get();
            switch (o.status()) {
                case ERASED -> finish(id, ErasureRequests.Status.ERASED, o.cleanUpError());
                case NOTHING -> finish(id, ErasureRequests.Status.NOTHING, null);
                case OFFLINE -> {
                    LOG.warn("erasure {} was not run: {}; cairn erase runs it with the processes stopped", id, o.why());
                    finish(id, ErasureRequests.Status.OFFLINE, o.why());
                }
            }
        } catch (ExecutionException e) {
            LOG.error("erasure {} failed", id, e.getCause());
            finish(id, ErasureRequests.Status.FAILED, String.valueOf(e.getCause().getMessage()));
        }
    }

    /**
     * Forgets the people the request names, makes the database give back the bytes that held them (as an erasure
     * does: {@link ErasureStore#vacuum}), then says what became of it, for the process that waits to answer.
     */
    private void finish(String id, ErasureRequests.Status status, String why) {
        requests.forget(id);
        try {
            erasures.vacuum(List.of("erasure_request"));
        } catch (StoreException e) {
            LOG.warn("erasure request {}: the database keeps its bytes until its next checkpoint: {}", id,
                    e.getMessage());
        }
        requests.finish(id, status, why);
    }

    @Override
    public void close() {
        DaemonThread.stop(thread);
    }
}
