package dev.cairn.erase;

import dev.cairn.log.EventLog;
import dev.cairn.store.Database;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StoreException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An erasure in a running Cairn that both appends the log and projects it ({@code cairn serve}): run on the
 * projector's thread between two of its transactions ({@code ProjectorRunner.exclusive}), it erases what the log holds
 * up to the projector's watermark, which has passed every write acknowledged before the erasure was asked for; what is
 * appended meanwhile is new data. Reads go on throughout (the tables change in one transaction), and so do durable
 * writes (the sequencer appends past the rewritten entries, which keep their places); readers that meet an entry
 * while it is rewritten read it again (the tailer's rereads).
 *
 * <p>Only an erasure whose tables can be changed row by row runs here ({@link TableErasure#whyRebuild}): a person's, a
 * batch of people's, statements by id or a retention period's; one that needs the tables rebuilt from the log (people
 * named inside other keys, people with statements chosen by id or time) is refused with the reason, for {@code cairn erase} with the processes stopped. The
 * pending mark covers the change as it does offline: a process killed mid-way refuses to start until
 * {@code cairn erase} has finished it.
 */
public final class OnlineErasure {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineErasure.class);

    /** What became of an erasure asked of a running Cairn. */
    public enum Status {
        /** Erased from the tables and the log. */
        ERASED,
        /** Nothing the log holds matches: nothing was changed. */
        NOTHING,
        /** It must run with the processes stopped ({@link Outcome#why()}): nothing was changed. */
        OFFLINE
    }

    /**
     * @param deadLetters  dead letters dropped (erased only)
     * @param cleanUpError why the database could not be made to give back its deleted rows' space at once (their
     *                     bytes stay in its write-ahead log until its next checkpoint), or null
     */
    public record Outcome(Status status, String erasureId, ErasurePlan.Counts counts, String why, int deadLetters,
                          long millis, String cleanUpError) {
    }

    /** Why a retention period cannot change the rows of tables whose stored times do not follow their order. */
    public static final String OUT_OF_ORDER = "the tables hold a statement stored before the period's end after one "
            + "stored at or after it";

    private final EventLog log;
    private final Path logDir;
    private final Database db;

    public OnlineErasure(EventLog log, Path logDir, Database db) {
        this.log = log;
        this.logDir = logDir;
        this.db = db;
    }

    /**
     * What erasing {@code request} now would do: its plan's counts, and why it would be refused (only 'cairn erase' can
     * run it), if it would.
     */
    public Planned dryRun(ErasurePlan.Request request) {
        ErasurePlan plan = ErasurePlan.counting(log, request, ErasurePlan.newErasureId(), log.lastSyncedPosition());
        Optional<String> why = plan.counts().isEmpty() ? Optional.empty()
                : new TableErasure(log, plan, new ErasureStore(db)).whyRebuild();
        return new Planned(plan.counts(), why.orElse(null));
    }

    /** A dry run's answer: what the erasure would change, and why it would be refused (null: it would run). */
    public record Planned(ErasurePlan.Counts counts, String offline) {
    }

    /**
     * Erases {@code request} as erasure {@code erasureId} in the entries up to the watermark of {@code writer}, the
     * projector's, which must not be used by anything else meanwhile.
     */
    public Outcome run(ProjectionWriter writer, String erasureId, ErasurePlan.Request request) {
        long started = System.nanoTime();
        ErasureStore store = new ErasureStore(db);
        long upTo = writer.watermark().logIndex();
        Predicate<String> namedByKept = null;
        if (request.choosesAny()) {
            Optional<Predicate<String>> named = ErasurePlan.namedByKept(store, request);
            if (named.isEmpty()) {
                return new Outcome(Status.OFFLINE, erasureId, ErasurePlan.Counts.NONE, OUT_OF_ORDER, 0,
                        millis(started), null);
            }
            namedByKept = named.get();
        }
        ErasurePlan plan = ErasurePlan.of(log, request, erasureId, upTo, namedByKept);
        ErasurePlan.Counts c = plan.counts();
        if (c.isEmpty()) {
            return new Outcome(Status.NOTHING, erasureId, c, null, 0, millis(started), null);
        }
        TableErasure rows = new TableErasure(log, plan, store);
        Optional<String> why = rows.whyRebuild();
        if (why.isPresent()) {
            return new Outcome(Status.OFFLINE, erasureId, c, why.get(), 0, millis(started), null);
        }
        if (PendingErasure.exists(logDir)) { // its mark must stay until 'cairn erase' has finished it
            return new Outcome(Status.OFFLINE, erasureId, c, "an earlier erasure did not finish ("
                    + logDir.resolve(PendingErasure.FILE) + "); 'cairn erase' finishes it first", 0, millis(started),
                    null);
        }
        PendingErasure.mark(logDir, erasureId, request, upTo);
        ErasureStore.Erasure record = new ErasureStore.Erasure(0, System.currentTimeMillis(),
                Erasures.subject(request), c.statementsRemoved(), c.statementsRewritten(), c.documentEntries(),
                c.entries(), c.bytes(), millis(started));
        TableErasure.Result result;
        try {
            result = rows.apply(writer, record, Erasures.REWRITE_BATCH_BYTES);
        } catch (RuntimeException e) {
            Boolean committed = committed(store, erasureId);
            if (committed == null) {
                throw e; // unknown: the mark stays, and 'cairn erase' finishes the erasure either way
            }
            if (!committed) {
                PendingErasure.clear(logDir); // rolled back: neither the tables nor the log changed
                throw e;
            }
            result = new TableErasure.Result(TableErasure.Outcome.COMMITTED, null); // the commit's answer was lost
        }
        if (result.outcome() == TableErasure.Outcome.REBUILD) {
            PendingErasure.clear(logDir);
            return new Outcome(Status.OFFLINE, erasureId, c, "an entry could not keep a removed statement's "
                    + "definitions, so the tables must be rebuilt from the log", 0, millis(started), null);
        }
        Erasures.rewrite(log, plan, result.rewrites());
        int letters = 0;
        String cleanUpError = null;
        try {
            letters = Erasures.cleanUp(db, plan, upTo);
        } catch (StoreException e) {
            cleanUpError = e.getMessage();
            LOG.warn("erasure {}: the database did not give back the erased rows' space at once: {}", erasureId,
                    e.getMessage());
        }
        long millis = millis(started);
        store.took(erasureId, millis);
        PendingErasure.clear(logDir); // last: a process killed before has 'cairn erase' finish the clean-up too
        LOG.info("erasure {} done beside the running ingest: {}; {} statements removed, {} rewritten, {} document "
                        + "entries, {} log entries up to position {}, {} dead letters, in {} ms", erasureId,
                record.subject(), c.statementsRemoved(), c.statementsRewritten(), c.documentEntries(), c.entries(),
                Long.toHexString(upTo), letters, millis);
        return new Outcome(Status.ERASED, erasureId, c, null, letters, millis, cleanUpError);
    }

    /** Whether the erasure's transaction committed after it failed (its answer may have been lost); null: unknown. */
    private static Boolean committed(ErasureStore store, String erasureId) {
        try {
            return store.recorded(erasureId);
        } catch (StoreException e) {
            return null;
        }
    }

    private static long millis(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }
}
