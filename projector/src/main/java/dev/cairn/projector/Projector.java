package dev.cairn.projector;

import dev.cairn.log.AttachmentContent;
import dev.cairn.log.DocumentWritten;
import dev.cairn.log.DocumentsDeleted;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectedStatement;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StoredDocument;
import dev.cairn.store.Watermark;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.IdsWriter;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;

/**
 * Applies the log to the store. Each call of {@link #doWork()} reads what the log has after the watermark (up to
 * a batch), adds it in one transaction and commits it with the new watermark, so a killed projector resumes where
 * its last committed transaction ended and never applies an entry twice.
 *
 * <p>Not thread-safe: one thread drives it (see {@link ProjectorRunner}).
 */
public final class Projector implements AutoCloseable {
    private final EventLog log;
    private final ProjectionWriter writer;
    private final WatermarkTracker tracker;
    private final int maxStatementsPerBatch;
    private LogTailer tailer;

    public Projector(EventLog log, Database db, WatermarkTracker tracker, int maxStatementsPerBatch) {
        this.log = log;
        this.writer = new ProjectionWriter(db);
        this.tracker = tracker;
        this.maxStatementsPerBatch = maxStatementsPerBatch;
    }

    public Watermark watermark() {
        return writer.watermark();
    }

    /**
     * Applies the entries after the watermark, up to one batch.
     *
     * @return the number of log entries applied; 0 when the log had nothing new
     */
    public int doWork() {
        if (tailer == null) {
            tailer = log.tailer(writer.watermark().logIndex());
        }
        long lookedAt = tracker.clock().millis();
        int entries = 0;
        int statements = 0;
        long lastIndex = -1;
        try {
            LogEntry e;
            while (statements < maxStatementsPerBatch && (e = tailer.next()) != null) {
                statements += apply(e);
                lastIndex = e.index();
                entries++;
            }
        } catch (RuntimeException ex) {
            writer.rollback();
            closeTailer();
            throw ex;
        }
        if (entries == 0) {
            tracker.drained(lookedAt);
            return 0;
        }
        tracker.advanced(writer.commit(lastIndex));
        return entries;
    }

    /** Applies one log entry; returns the number of statements (or documents) it changed. */
    private int apply(LogEntry entry) {
        if (entry.event() instanceof DocumentWritten d) {
            writer.putDocument(d.key(), new StoredDocument(d.contentType(), d.content(), d.etag(), d.updatedMillis()));
            return 1;
        }
        if (entry.event() instanceof DocumentsDeleted d) {
            writer.deleteDocuments(d.key(), d.all());
            return 1;
        }
        StatementsStored event = (StatementsStored) entry.event();
        for (StoredStatement s : event.statements()) {
            // The log holds only statements the sequencer accepted, so this parse cannot fail on valid logs;
            // 2.0.0 is the superset of what either version accepts.
            Statement statement = StatementParser.parseOne(s.json(), XapiVersion.V2_0_0).statement();
            writer.add(new ProjectedStatement(s.id(), s.storedMillis(), s.json(), IdsWriter.write(s.json(), statement),
                    FilterKeys.of(statement), statement.isVoiding()));
            if (event.defines()) { // without the define scope, only the ids of activities and agents are kept
                ActivityDefinitions.merge(s.json(), writer);
                AgentNames.record(statement, writer);
            }
        }
        for (AttachmentContent a : event.attachments()) {
            writer.putAttachment(a.sha2(), a.contentType(), a.content());
        }
        return event.statements().size();
    }

    /** Empties every projected table, so that the next {@link #doWork()} calls rebuild them from the log's start. */
    public void dropProjection(Database db) {
        closeTailer();
        writer.dropProjection(db);
        tracker.advanced(writer.watermark());
    }

    private void closeTailer() {
        if (tailer != null) {
            tailer.close();
            tailer = null;
        }
    }

    @Override
    public void close() {
        closeTailer();
        writer.close();
    }
}
