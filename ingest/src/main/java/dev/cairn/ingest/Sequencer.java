package dev.cairn.ingest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.lmax.disruptor.EventHandler;
import dev.cairn.log.DocumentWritten;
import dev.cairn.log.DocumentsDeleted;
import dev.cairn.log.EntryTooLargeException;
import dev.cairn.log.EntryVoided;
import dev.cairn.log.Event;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogFullException;
import dev.cairn.log.LogTailer;
import dev.cairn.log.LogWriteException;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.Database;
import dev.cairn.store.StoredDocument;
import dev.cairn.store.StoredState;
import dev.cairn.store.Watermark;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.Equivalence;
import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.XapiVersion;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single consumer of the ingest ring and the one place where writes are decided, so decisions need no locks
 * and no transaction retries. For each ring batch it looks up every statement id and document key of the batch
 * at once (store snapshot at watermark W plus the overlays of what it appended after W), decides each write in
 * ring order (statement conflicts, document preconditions and merges), appends one event per accepted request,
 * and at the end of the batch syncs the log once (group commit) before completing the requests.
 */
public final class Sequencer implements EventHandler<RingSlot> {
    private static final Logger LOG = LoggerFactory.getLogger(Sequencer.class);
    /** Overlay size from which a batch that needs no lookup still reads the watermark, to let the overlay shrink. */
    private static final int PRUNE_AFTER_IDS = 100_000;
    private static final StoredState.Snapshot NOTHING_TO_LOOK_UP = new StoredState.Snapshot(Watermark.EMPTY, Map.of(), Map.of());

    private final EventLog log;
    private final StoredState known;
    private final Clock clock;
    private final Runnable afterSync;
    private final DiskReserve reserve;
    private final StatementOverlay overlay = new StatementOverlay();
    private final DocumentOverlay documents = new DocumentOverlay();
    private final List<WriteCommand> batch = new ArrayList<>();
    private final List<WriteOutcome> outcomes = new ArrayList<>();
    private final Counter accepted;
    private final Timer appendTimer;
    private final Timer syncTimer;
    private LogAppender appender;
    /** Which ids may be stored; created on start, when the store's size is known. */
    private StoredIdFilter storedIds;
    /** Random access to entries this sequencer appended (created on its own thread, as {@link EventLog} asks). */
    private LogTailer reader;
    private long lastStoredMillis;
    /** Why the last {@link #tryAppend} appended nothing. */
    private WriteOutcome.Refused appendFailure;
    /**
     * The agents being erased ({@link StoredState#agentsBeingErased}), read again when a POST merge needs them and
     * they are older than {@link #ERASING_FOR_NANOS}: an erasure's request is stored before it begins.
     */
    private Set<String> erasing = Set.of();
    private long erasingReadNanos;
    private static final long ERASING_FOR_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Why {@link #onStart()} failed (every write is then refused with it), or null. */
    private Throwable startFailure;

    /**
     * @param afterSync called after each sync, before the requests complete (wakes an in-process projector)
     * @param metrics   where the statements accepted and the log's append and sync latencies are recorded
     */
    public Sequencer(EventLog log, StoredState known, Clock clock, Runnable afterSync, MeterRegistry metrics) {
        this(log, known, clock, afterSync, metrics, DiskReserve.NONE);
    }

    /** @param reserve the free space below which every write is refused with 507 before it reaches the log */
    public Sequencer(EventLog log, StoredState known, Clock clock, Runnable afterSync, MeterRegistry metrics,
                     DiskReserve reserve) {
        this.log = log;
        this.known = known;
        this.clock = clock;
        this.afterSync = afterSync;
        this.reserve = reserve;
        this.accepted = Counter.builder("cairn.statements.accepted").description("Statements appended to the log")
                .register(metrics);
        this.appendTimer = Timer.builder("cairn.log.append").description("Appending one event to the log")
                .publishPercentileHistogram().register(metrics);
        this.syncTimer = Timer.builder("cairn.log.sync").description("Syncing the log once per ring batch")
                .publishPercentileHistogram().register(metrics);
    }

    @Override
    public void onStart() {
        try {
            appender = log.appender();
            Watermark w = known.watermark();
            // Stored times never decrease along the log (a retention period's plan relies on it), across restarts
            // too: a clock set back since the last run does not put a statement before one stored earlier.
            lastStoredMillis = w.storedMillis();
            storedIds = new StoredIdFilter(2 * w.seq());
            recoverOverlay(w.logIndex());
            storedIds.loadInBackground(known);
        } catch (Throwable t) {
            LOG.error("the sequencer cannot start; every write is refused", t);
            startFailure = t;
        }
    }

    /** Rebuilds the overlays from the log entries after the store's watermark (they may not be projected yet). */
    private void recoverOverlay(long w) {
        int entries = 0;
        try (LogTailer tailer = log.tailer(w)) {
            LogEntry e;
            while ((e = tailer.next()) != null) {
                entries++;
                if (e.event() instanceof EntryVoided) {
                    continue;
                }
                if (!(e.event() instanceof StatementsStored)) {
                    documents.add(e.position(), e.event());
                    lastStoredMillis = Math.max(lastStoredMillis, updatedMillis(e.event()));
                    continue;
                }
                List<UUID> ids = new ArrayList<>();
                for (StoredStatement s : ((StatementsStored) e.event()).statements()) {
                    ids.add(s.id()); // an erased one's too: its id may not be stored again
                    lastStoredMillis = Math.max(lastStoredMillis, s.storedMillis());
                }
                remember(e.position(), ids);
            }
        }
        if (entries > 0) {
            LOG.info("sequencer: {} log entries after the watermark are not projected yet; holding their ids in memory", entries);
        }
    }

    @Override
    public void onEvent(RingSlot slot, long sequence, boolean endOfBatch) {
        batch.add(slot.command);
        slot.reset();
        if (endOfBatch) {
            decideBatch();
        }
    }

    private void decideBatch() {
        try {
            if (startFailure != null) {
                throw new IllegalStateException("the sequencer did not start: " + startFailure.getMessage(), startFailure);
            }
            String shortfall = reserve.shortfall();
            if (shortfall != null) {
                for (WriteCommand c : batch) {
                    c.outcome().complete(diskFull(shortfall));
                }
                return;
            }
            Set<UUID> ids = new HashSet<>();
            Set<DocumentKey> keys = new HashSet<>();
            for (WriteCommand c : batch) {
                if (c instanceof WriteCommand.Statements s) {
                    lookUp(s.putId(), ids);
                    for (ParsedStatement p : s.statements()) {
                        lookUp(p.statement().id(), ids);
                        lookUp(VoidingAuthority.target(p.statement()), ids);
                    }
                } else if (c instanceof WriteCommand.Document d && !d.all()) {
                    keys.add(d.key());
                }
            }
            StoredState.Snapshot snapshot;
            if (ids.isEmpty() && keys.isEmpty() && overlay.size() < PRUNE_AFTER_IDS) {
                snapshot = NOTHING_TO_LOOK_UP; // only fresh ids: only the overlay needs the store, to shrink
            } else {
                snapshot = known.find(ids, keys);
                overlay.prune(snapshot.watermark().logIndex());
                documents.prune(snapshot.watermark().logIndex());
            }
            boolean appended = false;
            for (WriteCommand c : batch) {
                WriteOutcome o = decideAlone(c, snapshot);
                outcomes.add(o);
                appended |= o instanceof WriteOutcome.Accepted a && a.logIndex() >= 0;
            }
            if (appended) {
                long syncStart = System.nanoTime();
                appender.sync();
                syncTimer.record(System.nanoTime() - syncStart, TimeUnit.NANOSECONDS);
                afterSync.run();
            }
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).outcome().complete(outcomes.get(i));
            }
            if (appended) {
                appender.warmAhead(); // once the batch is answered: off its requests' way, and the next batch's gain
            }
        } catch (Throwable e) {
            // Errors too (a fault in the log's memory map is an InternalError): fail this batch's requests, not the ring.
            LOG.error("sequencer failed on a batch of {} requests", batch.size(), e);
            for (WriteCommand c : batch) {
                if (outcomes.isEmpty()) { // failed before deciding anything, so before any append
                    c.outcome().complete(Database.connectionLost(e) ? WriteOutcome.Refused.STORE_UNAVAILABLE
                            : WriteOutcome.Refused.NOT_STORED);
                } else {
                    c.outcome().completeExceptionally(e);
                }
            }
        } finally {
            batch.clear();
            outcomes.clear();
        }
    }

    private static WriteOutcome.Refused diskFull(String why) {
        return new WriteOutcome.Refused(507, "storage.full", "server", "the write was not stored: " + why
                + "; retry once space is freed");
    }

    /** Appends {@code event}; on a failure, nothing was appended and {@link #appendFailure} says why. */
    private Long tryAppend(Event event) {
        long appendStart = System.nanoTime();
        try {
            long index = appender.append(event);
            appendTimer.record(System.nanoTime() - appendStart, TimeUnit.NANOSECONDS);
            return index;
        } catch (LogFullException e) {
            LOG.warn("a write was refused: {}", e.getMessage());
            appendFailure = diskFull("the log's disk is full");
        } catch (LogWriteException e) {
            LOG.error("a write could not be appended to the log", e);
            appendFailure = new WriteOutcome.Refused(500, "log.append_failed", "server",
                    "the write was not stored: the log could not append it; retry");
        }
        return null;
    }

    /**
     * Decides one request as a unit of its own: its append is the last step that can fail, and a failed append
     * writes nothing, so a request that fails here changed nothing and fails alone, never its batch.
     */
    private WriteOutcome decideAlone(WriteCommand c, StoredState.Snapshot snapshot) {
        try {
            return c instanceof WriteCommand.Statements s ? decide(s, snapshot.stored())
                    : decide((WriteCommand.Document) c, snapshot.documents());
        } catch (EntryTooLargeException e) {
            return new WriteOutcome.Refused(413, "request.too_large", "body", "the request would take " + e.length()
                    + " bytes in the log, more than the " + e.maxLength() + " one write may take; "
                    + (c instanceof WriteCommand.Statements ? "send the statements in smaller batches"
                    : "store a smaller document"));
        } catch (RuntimeException e) {
            LOG.error("sequencer: a {} failed and was not stored", c.getClass().getSimpleName(), e);
            return WriteOutcome.Refused.NOT_STORED;
        }
    }

    /**
     * Adds {@code id} to the ids to look up in the store unless the filter proves it absent. Ids the overlay knows
     * are looked up too: the snapshot may move the watermark past them, and the overlay then forgets them.
     */
    private void lookUp(UUID id, Set<UUID> ids) {
        if (id != null && storedIds.mightContain(id)) {
            ids.add(id);
        }
    }

    private WriteOutcome decide(WriteCommand.Statements c, Map<UUID, byte[]> stored) {
        long now = Math.max(clock.millis(), lastStoredMillis);
        String storedText = Timestamps.format(now);
        String version = c.version() == XapiVersion.V2_0_0 ? "2.0.0" : "1.0.0";
        List<UUID> ids = new ArrayList<>(c.statements().size());
        List<UUID> newIds = new ArrayList<>();
        List<StoredStatement> out = new ArrayList<>();
        for (ParsedStatement p : c.statements()) {
            Statement s = p.statement();
            UUID id = s.id() != null ? s.id() : c.putId() != null ? c.putId() : UUID.randomUUID();
            ids.add(id);
            byte[] existing = storedJson(id, stored);
            if (existing != null && StoredState.isErased(existing)) {
                return new WriteOutcome.Refused(409, "statement.erased", "statement " + id, "statement " + id
                        + " was erased from this LRS (a person's data or a retention period) and cannot be stored"
                        + " again; drop it from the client's queue");
            }
            if (existing != null) {
                Statement before = StatementParser.parseStored(existing).statement();
                if (!Equivalence.equivalent(s.withId(id), before)) {
                    return new WriteOutcome.Refused(409, "statement.conflict", "statement " + id, "statement " + id
                            + " is already stored with different content; statements cannot be changed");
                }
                continue; // an equivalent statement is already stored: nothing to do
            }
            UUID target = VoidingAuthority.target(s);
            byte[] targetJson = target == null ? null : storedJson(target, stored);
            String where = c.putId() != null ? "$" : "$[" + (ids.size() - 1) + "]";
            WriteOutcome.Refused refused = targetJson == null || StoredState.isErased(targetJson) ? null
                    : VoidingAuthority.refusal(c, target, targetJson, where);
            if (refused != null) {
                return refused;
            }
            byte[] json = ExactWriter.write(p, id, storedText, c.authority(), version);
            out.add(new StoredStatement(id, now, json));
            newIds.add(id);
        }
        if (out.isEmpty()) {
            return new WriteOutcome.Accepted(ids, -1, 0);
        }
        Long index = tryAppend(new StatementsStored(out, c.attachments(), c.defines()));
        if (index == null) {
            return appendFailure;
        }
        accepted.increment(out.size());
        lastStoredMillis = now;
        remember(index, newIds);
        return new WriteOutcome.Accepted(ids, index, out.size());
    }

    /**
     * The stored exact form of statement {@code id}, appended but not projected or in the snapshot ({@link
     * StoredState#ERASED} for an erased one); null if absent.
     */
    private byte[] storedJson(UUID id, Map<UUID, byte[]> stored) {
        long appendedAt = appendedAt(id);
        return appendedAt >= 0 ? appendedJson(appendedAt, id) : stored.get(id);
    }

    /** Records statements the log holds from {@code logIndex} on: the overlay and the filter always agree. */
    private void remember(long logIndex, List<UUID> ids) {
        overlay.add(logIndex, ids);
        ids.forEach(storedIds::add);
    }

    /**
     * The log index of the unprojected entry holding {@code id}, or -1. The overlay probes every segment, so the
     * filter answers first; it is asked again here, not only in {@link #lookUp}, because an earlier request of the
     * same ring batch may have appended this id since.
     */
    private long appendedAt(UUID id) {
        return storedIds.mightContain(id) ? overlay.indexOf(id) : -1;
    }

    /** Decides a document write against its current state: preconditions, the 409 rule, the POST merge. */
    private WriteOutcome decide(WriteCommand.Document c, Map<DocumentKey, StoredDocument> stored) {
        long now = Math.max(clock.millis(), lastStoredMillis);
        if (c.all()) {
            return appendDocumentEvent(new DocumentsDeleted(c.key(), true, now), now);
        }
        DocumentOverlay.Known k = documents.find(c.key());
        StoredDocument current = k == null ? stored.get(c.key())
                : k instanceof DocumentOverlay.Present p ? p.document() : null;
        if (!c.preconditions().allow(current == null ? null : current.etag())) {
            return new WriteOutcome.Refused(412, "document.precondition_failed", "header If-Match / If-None-Match",
                    current == null ? "the precondition failed: there is no document here"
                            : "the precondition failed: the document's ETag is now \"" + current.etag() + "\"");
        }
        switch (c.operation()) {
            case DELETE -> {
                if (current == null) {
                    return new WriteOutcome.Accepted(List.of(), -1, 0);
                }
                return appendDocumentEvent(new DocumentsDeleted(c.key(), false, now), now);
            }
            case PUT -> {
                if (c.preconditions().isEmpty() && current != null && c.rule() != WriteCommand.PutRule.ANY) {
                    return new WriteOutcome.Refused(409, "document.conflict", "header If-Match",
                            "a document already exists here; to replace it, send If-Match with its current ETag \""
                                    + current.etag() + "\" (or If-None-Match: * to write only a new document)");
                }
                if (c.preconditions().isEmpty() && c.rule() == WriteCommand.PutRule.NONE) {
                    return new WriteOutcome.Refused(400, "document.precondition_required", "header If-None-Match",
                            "a PUT of a profile must send If-None-Match: * to create it, or If-Match with the "
                                    + "current ETag to replace it (xAPI 1.0.3 Communication 3.1)");
                }
                return writeDocument(c.key(), c.contentType(), c.content(), now);
            }
            default -> {
                if (current == null) {
                    return writeDocument(c.key(), c.contentType(), c.content(), now);
                }
                if (beingErased(c.key().agent())) {
                    // A merge now would carry the content the erasure takes out into a new entry after it.
                    return new WriteOutcome.Refused(503, "document.erasing", "agent", "an erasure of this agent's data "
                            + "is under way; send the POST again in a few seconds");
                }
                ObjectNode storedObject = DocumentMerge.isJson(current.contentType()) ? DocumentMerge.object(current.content()) : null;
                ObjectNode postedObject = DocumentMerge.isJson(c.contentType()) ? DocumentMerge.object(c.content()) : null;
                if (storedObject == null || postedObject == null) {
                    return new WriteOutcome.Refused(400, "document.merge", "body",
                            "POST merges JSON objects: both the stored document and the posted one must be "
                                    + "application/json objects; use PUT to replace the document");
                }
                return writeDocument(c.key(), DocumentMerge.JSON_TYPE, DocumentMerge.merge(storedObject, postedObject), now);
            }
        }
    }

    /** Whether an erasure asked of a running Cairn is erasing the agent of IFI key {@code agentKey} now. */
    private boolean beingErased(String agentKey) {
        long now = System.nanoTime();
        if (erasingReadNanos == 0 || now - erasingReadNanos > ERASING_FOR_NANOS) {
            erasing = known.agentsBeingErased();
            erasingReadNanos = now;
        }
        return erasing.contains(agentKey);
    }

    private WriteOutcome writeDocument(DocumentKey key, String contentType, byte[] content, long now) {
        return appendDocumentEvent(new DocumentWritten(key, contentType, content, Sha1.hex(content), now), now);
    }

    private WriteOutcome appendDocumentEvent(Event event, long now) {
        Long index = tryAppend(event);
        if (index == null) {
            return appendFailure;
        }
        lastStoredMillis = now;
        documents.add(index, event);
        return new WriteOutcome.Accepted(List.of(), index, 0);
    }

    private static long updatedMillis(Event e) {
        return e instanceof DocumentWritten w ? w.updatedMillis() : ((DocumentsDeleted) e).updatedMillis();
    }

    /** Reads back a statement this sequencer appended and the projector has not applied yet. */
    private byte[] appendedJson(long logIndex, UUID id) {
        if (reader == null) {
            reader = log.tailer(EventLog.START);
        }
        for (StoredStatement s : ((StatementsStored) reader.at(logIndex).event()).statements()) {
            if (s.id().equals(id)) {
                return s.json();
            }
        }
        throw new IllegalStateException("log entry " + Long.toHexString(logIndex) + " does not hold statement " + id);
    }

    @Override
    public void onShutdown() {
        if (appender != null) {
            appender.sync();
            appender.close();
        }
        if (reader != null) {
            reader.close();
        }
    }
}
