package dev.cairn.ops;

import dev.cairn.ingest.IngestRing;
import dev.cairn.ingest.Sequencer;
import dev.cairn.ingest.WriteCommand;
import dev.cairn.ingest.WriteOutcome;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.WriterLock;
import dev.cairn.store.Database;
import dev.cairn.store.KnownState;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.XapiVersion;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The import as the log's one sequencer: it holds the {@link WriterLock} and runs the ingest's own
 * {@link IngestRing} and {@link Sequencer} in this process, so every batch is decided exactly as a POST would be
 * (conflicts by equivalence, stamping, one log entry per batch, a sync per ring batch before the outcome completes).
 * Closing drains the ring and syncs the log, then lets go of the lock.
 */
final class ImportRingSink implements ImportSink {
    /** Few slots: each holds a whole batch, and the pipeline keeps only a handful in flight. */
    private static final int RING_SIZE = 16;

    private final WriterLock lock;
    private final EventLog log;
    private final Database db;
    private final IngestRing ring;
    private final byte[] authority;
    private final XapiVersion version;
    /** Reads back the entries this import appended, to count their statements (the outcome gives only ids). */
    private final LogTailer tailer;
    private final Map<Long, Integer> appendedCounts = new HashMap<>();

    private ImportRingSink(WriterLock lock, EventLog log, Database db, byte[] authority, XapiVersion version) {
        this.lock = lock;
        this.log = log;
        this.db = db;
        this.authority = authority;
        this.version = version;
        this.tailer = log.tailer(log.lastIndex());
        this.ring = new IngestRing(new Sequencer(log, new KnownState(db), Clock.systemUTC(), () -> { }), RING_SIZE);
    }

    /**
     * Runs the sequencer on the log and database given, which it closes, with the lock, when it is closed.
     *
     * @param authority the authority JSON stamped on every statement
     */
    static ImportRingSink start(WriterLock lock, EventLog log, Database db, byte[] authority, XapiVersion version) {
        return new ImportRingSink(lock, log, db, authority, version);
    }

    @Override
    public Pending submit(List<ParsedStatement> statements) {
        CompletableFuture<WriteOutcome> outcome = new CompletableFuture<>();
        WriteCommand command = new WriteCommand.Statements(statements, List.of(), null, authority, version, outcome);
        while (!ring.tryPublish(command)) {
            Thread.onSpinWait(); // the pipeline bounds what is in flight, so the ring frees up within a batch
        }
        return () -> settle(outcome, statements.size());
    }

    private Outcome settle(CompletableFuture<WriteOutcome> future, int size) throws InterruptedException {
        WriteOutcome o;
        try {
            o = future.get();
        } catch (ExecutionException e) {
            throw new ImportFailedException("the sequencer failed: " + e.getCause().getMessage(), e.getCause());
        }
        if (o instanceof WriteOutcome.Refused r) {
            if (r.status() == 409 && r.where().startsWith("statement ")) {
                return new Outcome.Conflict(UUID.fromString(r.where().substring("statement ".length())), r.message());
            }
            throw new ImportFailedException("the sequencer refused a batch (" + r.status() + " " + r.code() + " at "
                    + r.where() + "): " + r.message());
        }
        long index = ((WriteOutcome.Accepted) o).logIndex();
        int added = index < 0 ? 0 : appended(index);
        return new Outcome.Stored(added, size - added);
    }

    /** How many statements the entry at {@code index} holds: read back from the log, which only this import appends. */
    private int appended(long index) {
        Integer known = appendedCounts.remove(index);
        while (known == null) {
            LogEntry e = tailer.next();
            if (e == null) {
                throw new ImportFailedException("log entry " + Long.toHexString(index) + " was acknowledged but cannot "
                        + "be read back from " + log.dir());
            }
            int n = e.event() instanceof StatementsStored s ? s.statements().size() : 0;
            if (e.index() == index) {
                known = n;
            } else {
                appendedCounts.put(e.index(), n);
            }
        }
        return known;
    }

    @Override
    public boolean countsPresent() {
        return true;
    }

    @Override
    public String describe() {
        return "appending to the log in " + log.dir() + " (no ingest is running; this import is the sequencer)";
    }

    @Override
    public void close() {
        try {
            ring.close();
        } finally {
            tailer.close();
            db.close();
            log.close();
            lock.close();
        }
    }
}
