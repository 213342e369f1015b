package dev.cairn.projector;

import dev.cairn.xapi.AgentNames;
import dev.cairn.log.AttachmentContent;
import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.DocumentWritten;
import dev.cairn.log.DocumentsDeleted;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StoredDocument;
import dev.cairn.store.Watermark;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.ActivityDefinitions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Applies the log to the store. Each call of {@link #doWork()} takes what the log has after the watermark (up to
 * a batch), adds it in one transaction and commits it with the new watermark, so a killed projector resumes where
 * its last committed transaction ended and never applies an entry twice.
 *
 * <p>Reading and preparing entries ({@link PreparedEntry}: parsing, filter keys, activity definitions) needs no
 * database, so a second thread does it a few small chunks ahead of this one, which writes: the two halves of the
 * work overlap on two cores, and little prepared data is alive at once. What was read ahead is dropped, and read
 * again, whenever a transaction is not committed.
 *
 * <p>Not thread-safe: one thread drives it (see {@link ProjectorRunner}).
 */
public final class Projector implements AutoCloseable {
    /** {@link #reopenAt} when the reader just goes on where its last read ended. */
    private static final long CONTINUE = Long.MIN_VALUE;
    /** Statements per chunk read ahead (whole entries, so an entry of more statements is one chunk). */
    private static final int CHUNK_STATEMENTS = 256;
    /**
     * Bytes of events per chunk read ahead (whole entries too): entries that carry attachments hold up to an entry's
     * size each, so the read-ahead is bounded by bytes as well as by statements (16 chunks of 4 MiB, plus one entry).
     */
    private static final long CHUNK_BYTES = 4L << 20;
    /**
     * Chunks read ahead of the writer: enough for the reader to go on preparing while the writer commits a batch
     * (with 2, it sat idle through each commit and the writer then waited for it: 13-22% faster with 16).
     */
    private static final int CHUNKS_AHEAD = 16;

    private final EventLog log;
    private final ProjectionWriter writer;
    private final WatermarkTracker tracker;
    private final int maxStatementsPerBatch;
    /** Reads and prepares chunks, in log order; the only thread that touches {@link #tailer}. */
    private final ExecutorService reader;
    private LogTailer tailer;
    /** What the reader has read since it last started over; only the reader thread touches it. */
    private final Repeats repeats = new Repeats();
    /** The log index after which the next read starts over, or {@link #CONTINUE}. */
    private long reopenAt;
    /** Chunks being read ahead, oldest first. */
    private final ArrayDeque<Future<Chunk>> ahead = new ArrayDeque<>();
    /** Whether the last {@link #doWork()} stopped at the end of the log rather than at a full batch. */
    private boolean caughtUp;
    /** Chunk reads handed to the reader thread so far. */
    private long readsStarted;

    /**
     * Prepared entries that follow the previous chunk's in the log; {@code atEnd} when the read stopped at the log's
     * end rather than at a chunk's size. An empty chunk means the log had nothing more when its read began
     * ({@code lookedAtMillis}, and {@code readNanos} to order it against a call).
     */
    private record Chunk(long lookedAtMillis, long readNanos, List<PreparedEntry> entries, boolean atEnd,
                         BadLogEntryException bad) {
    }

    /** A projector that applies {@code log} through {@code writer}, which it closes when it closes. */
    public Projector(EventLog log, ProjectionWriter writer, WatermarkTracker tracker, int maxStatementsPerBatch) {
        this.log = log;
        this.writer = writer;
        this.tracker = tracker;
        this.maxStatementsPerBatch = maxStatementsPerBatch;
        this.reopenAt = writer.watermark().logIndex();
        this.reader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cairn-projector-read");
            t.setDaemon(true);
            return t;
        });
    }

    public Watermark watermark() {
        return writer.watermark();
    }

    /** Whether the last {@link #doWork()} applied everything the log held (rather than stopping at a full batch). */
    boolean caughtUp() {
        return caughtUp;
    }

    /** Chunk reads handed to the reader thread so far, for the tests of what a pass at the log's end costs. */
    long readsStarted() {
        return readsStarted;
    }

    /** Whether a writer waits for a log entry to become visible. */
    boolean awaited() {
        return tracker.awaited();
    }

    /** Tells the tracker why the watermark cannot move, or with null that it moves again. */
    void stalled(String why) {
        tracker.stalled(why);
    }

    /** Runs {@code r} whenever a writer starts waiting for a log entry to become visible. */
    void onWaiter(Runnable r) {
        tracker.onWaiter(r);
    }

    /**
     * Applies the entries after the watermark, up to one batch.
     *
     * @return the number of log entries applied; 0 when the log had nothing new
     */
    public int doWork() {
        long started = System.nanoTime();
        BadLogEntryException bad = null;
        int entries = 0;
        int statements = 0;
        long lastIndex = -1;
        caughtUp = false;
        try {
            while (statements < maxStatementsPerBatch) {
                if (ahead.isEmpty()) {
                    ahead.add(readAhead());
                }
                Chunk chunk = await(ahead.poll());
                if (chunk.bad() != null) {
                    bad = chunk.bad();
                }
                if (chunk.entries().isEmpty() && bad == null) {
                    if (chunk.readNanos() - started < 0) {
                        continue; // read before this call began, so the log may have more now: look again
                    }
                    if (entries == 0) {
                        tracker.drained(chunk.lookedAtMillis());
                    }
                    caughtUp = true;
                    break;
                }
                for (PreparedEntry e : chunk.entries()) {
                    apply(e);
                    statements += e.size();
                    lastIndex = e.entry().position();
                }
                entries += chunk.entries().size();
                if (bad != null) {
                    break;
                }
                // The log has more: read ahead while the next chunks are written. Only then: at the log's end, reads
                // kept in flight would each come back empty, a hand-off to the reader thread and back per read. (Not
                // before this chunk is written: a chunk more in memory broke the heap bound of a replay of
                // attachments.)
                if (!chunk.atEnd()) {
                    while (ahead.size() < CHUNKS_AHEAD) {
                        ahead.add(readAhead());
                    }
                } else if (ahead.isEmpty() && chunk.readNanos() - started >= 0) {
                    // Entries synced since that read come with a wake-up of the runner, or its next look. (A chunk
                    // read before this call began may have missed some the wake-up came for: look again.)
                    caughtUp = true;
                    break;
                }
            }
            if (entries > 0) {
                tracker.advanced(writer.commit(lastIndex));
            }
            if (bad != null) {
                discardReadAhead();
                throw stopped(bad);
            }
        } catch (BadLogEntryException ex) {
            throw ex;
        } catch (RuntimeException ex) {
            try {
                writer.rollback();
            } finally {
                discardReadAhead(); // always: chunks left behind would be applied after a gap
            }
            if (writer.watermark().logIndex() != tracker.current().logIndex()) {
                tracker.advanced(writer.watermark()); // a commit whose answer was lost did happen
            }
            throw ex;
        }
        return entries;
    }

    /** What the projector says when it meets an entry it cannot apply: where, and what an operator does about it. */
    private BadLogEntryException stopped(BadLogEntryException bad) {
        return new BadLogEntryException(bad.position(), "cannot be applied, so the projector stops after log index "
                + Long.toHexString(writer.watermark().logIndex()) + " (" + bad.getMessage() + "). Run 'cairn log check'"
                + " on this log: a torn tail is voided by 'cairn log check --truncate-torn-tail', then restart; an "
                + "entry damaged before the last synced position needs the log restored from a copy");
    }

    private Future<Chunk> readAhead() {
        readsStarted++;
        long from = reopenAt;
        reopenAt = CONTINUE;
        return reader.submit(() -> read(from));
    }

    /** Runs on the reader thread. */
    private Chunk read(long reopenFrom) {
        if (reopenFrom != CONTINUE) {
            closeTailer();
            tailer = log.syncedTailer(reopenFrom);
            repeats.forget();
        }
        long readNanos = System.nanoTime();
        long lookedAt = tracker.clock().millis();
        List<PreparedEntry> entries = new ArrayList<>();
        int statements = 0;
        long bytes = 0;
        try {
            while (statements < CHUNK_STATEMENTS && bytes < CHUNK_BYTES) {
                LogEntry e = tailer.next();
                if (e == null) {
                    return new Chunk(lookedAt, readNanos, entries, true, null);
                }
                PreparedEntry p = PreparedEntry.of(e, repeats);
                entries.add(p);
                statements += p.size();
                bytes += p.bytes();
            }
        } catch (BadLogEntryException bad) {
            return new Chunk(lookedAt, readNanos, entries, false, bad);
        }
        return new Chunk(lookedAt, readNanos, entries, false, null);
    }

    private Chunk await(Future<Chunk> chunk) {
        try {
            return chunk.get();
        } catch (ExecutionException e) {
            reopenAt = writer.watermark().logIndex(); // the reader stopped part-way: start over at the watermark
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("reading the log failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reopenAt = writer.watermark().logIndex();
            throw new IllegalStateException("interrupted while reading the log", e);
        }
    }

    /** Forgets what was read ahead (it follows entries that were not committed): the next read starts over. */
    private void discardReadAhead() {
        for (Future<Chunk> chunk : ahead) {
            try {
                chunk.get();
            } catch (ExecutionException e) {
                // read again from the watermark below, where the failure shows again if it is lasting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ahead.clear();
        reopenAt = writer.watermark().logIndex();
    }

    /** Writes one prepared log entry into the open transaction. */
    private void apply(PreparedEntry prepared) {
        if (prepared.entry().event() instanceof DocumentWritten d) {
            writer.putDocument(d.key(), new StoredDocument(d.contentType(), d.content(), d.etag(), d.updatedMillis()));
            return;
        }
        if (prepared.entry().event() instanceof DocumentsDeleted d) {
            writer.deleteDocuments(d.key(), d.all());
            return;
        }
        if (!(prepared.entry().event() instanceof StatementsStored stored)) {
            return; // a voided torn entry: nothing to apply
        }
        for (PreparedEntry.Prepared p : prepared.statements()) {
            if (p.isErased()) {
                writer.addErased(p.projected().id(), p.projected().storedMillis());
            } else {
                writer.add(p.projected());
            }
            for (ActivityDefinitions.Defined d : p.definitions()) {
                writer.defineActivity(d.activityId(), d.definition());
            }
            for (AgentNames.Named n : p.names()) {
                writer.addAgentName(n.ifiKey(), n.name());
            }
            for (String sha2 : p.carried()) {
                writer.carriedAttachment(p.projected().id(), sha2);
            }
        }
        for (AttachmentContent a : stored.attachments()) {
            writer.putAttachment(a.sha2(), a.contentType(), a.content());
        }
    }

    /**
     * Runs {@code task} with this projector's writer between two transactions (an erasure beside the running ingest):
     * what was read ahead is dropped first, and the next read starts over at the watermark, since the task may have
     * rewritten entries of the log before it.
     */
    <T> T exclusive(Function<ProjectionWriter, T> task) {
        discardReadAhead();
        try {
            return task.apply(writer);
        } finally {
            reopenAt = writer.watermark().logIndex();
        }
    }

    /** Empties every projected table, so that the next {@link #doWork()} calls rebuild them from the log's start. */
    public void dropProjection(Database db) {
        discardReadAhead();
        writer.dropProjection(db);
        reopenAt = writer.watermark().logIndex();
        tracker.advanced(writer.watermark());
    }

    /** Runs on the reader thread. */
    private void closeTailer() {
        if (tailer != null) {
            tailer.close();
            tailer = null;
        }
    }

    @Override
    public void close() {
        discardReadAhead();
        try {
            reader.submit(this::closeTailer).get();
        } catch (ExecutionException e) {
            // closing anyway: the tailer goes with the log
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            reader.shutdown();
            writer.close();
        }
    }
}
