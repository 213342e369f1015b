package dev.cairn.importer;

import dev.cairn.http.Principal;
import dev.cairn.ingest.IngestRing;
import dev.cairn.ingest.Sequencer;
import dev.cairn.ingest.WriteCommand;
import dev.cairn.ingest.WriteOutcome;
import dev.cairn.log.EventLog;
import dev.cairn.log.WriterLock;
import dev.cairn.store.Database;
import dev.cairn.store.KnownState;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.XapiVersion;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
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
    private final Principal writer;
    private final XapiVersion version;

    private ImportRingSink(WriterLock lock, EventLog log, Database db, Principal writer, XapiVersion version,
                           MeterRegistry metrics) {
        this.lock = lock;
        this.log = log;
        this.db = db;
        this.writer = writer;
        this.version = version;
        this.ring = new IngestRing(new Sequencer(log, new KnownState(db), Clock.systemUTC(), () -> { }, metrics), RING_SIZE);
    }

    /**
     * Runs the sequencer on the log and database given, which it closes, with the lock, when it is closed.
     *
     * @param writer  the credential whose authority every statement carries (and whose define scope it uses)
     * @param metrics where the sequencer records its appends and syncs
     */
    static ImportRingSink start(WriterLock lock, EventLog log, Database db, Principal writer, XapiVersion version,
                                MeterRegistry metrics) {
        return new ImportRingSink(lock, log, db, writer, version, metrics);
    }

    @Override
    public Pending submit(List<ParsedStatement> statements) {
        CompletableFuture<WriteOutcome> outcome = new CompletableFuture<>();
        WriteCommand command = new WriteCommand.Statements(statements, List.of(), null, writer.authority(),
                writer.authorityKey(), writer.defines(), writer.voidsAnyStatement(), version, outcome);
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
        int added = ((WriteOutcome.Accepted) o).appended();
        return new Outcome.Stored(added, size - added);
    }

    @Override
    public boolean countsPresent() {
        return true;
    }

    @Override
    public String describe() {
        return "appending to the log in " + log.location() + " (no ingest is running; this import is the sequencer)";
    }

    @Override
    public void close() {
        try {
            ring.close();
        } finally {
            db.close();
            log.close();
            lock.close();
        }
    }
}
