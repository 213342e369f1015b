package dev.cairn.ingest;

import com.lmax.disruptor.EventHandler;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.StatementLookup;
import dev.cairn.xapi.Equivalence;
import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.XapiVersion;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single consumer of the ingest ring and the one place where writes are decided, so decisions need no locks
 * and no transaction retries. For each ring batch it looks up every statement id of the batch at once (store
 * snapshot at watermark W plus the overlay of what it appended after W), decides each write in ring order,
 * appends one event per accepted request, and at the end of the batch syncs the log once (group commit) before
 * completing the requests.
 */
public final class Sequencer implements EventHandler<RingSlot> {
    private static final Logger LOG = LoggerFactory.getLogger(Sequencer.class);

    private final EventLog log;
    private final StatementLookup lookup;
    private final Clock clock;
    private final Runnable afterSync;
    private final StatementOverlay overlay = new StatementOverlay();
    private final List<WriteCommand> batch = new ArrayList<>();
    private final List<WriteOutcome> outcomes = new ArrayList<>();
    private LogAppender appender;
    private long lastStoredMillis;

    /**
     * @param afterSync called after each sync, before the requests complete (wakes an in-process projector)
     */
    public Sequencer(EventLog log, StatementLookup lookup, Clock clock, Runnable afterSync) {
        this.log = log;
        this.lookup = lookup;
        this.clock = clock;
        this.afterSync = afterSync;
    }

    @Override
    public void onStart() {
        appender = log.appender();
        recoverOverlay();
    }

    /** Rebuilds the overlay from the log entries after the store's watermark (they may not be projected yet). */
    private void recoverOverlay() {
        long w = lookup.find(List.of()).watermark().logIndex();
        int entries = 0;
        try (LogTailer tailer = log.tailer(w)) {
            LogEntry e;
            while ((e = tailer.next()) != null) {
                List<UUID> ids = new ArrayList<>();
                List<byte[]> jsons = new ArrayList<>();
                for (StoredStatement s : ((StatementsStored) e.event()).statements()) {
                    ids.add(s.id());
                    jsons.add(s.json());
                    lastStoredMillis = Math.max(lastStoredMillis, s.storedMillis());
                }
                overlay.add(e.index(), ids, jsons);
                entries++;
            }
        }
        if (entries > 0) {
            LOG.info("sequencer: {} log entries after the watermark are not projected yet; holding them in memory", entries);
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
            Set<UUID> ids = new HashSet<>();
            for (WriteCommand c : batch) {
                if (c.putId() != null) {
                    ids.add(c.putId());
                }
                for (ParsedStatement p : c.statements()) {
                    if (p.statement().id() != null) {
                        ids.add(p.statement().id());
                    }
                }
            }
            StatementLookup.Snapshot snapshot = lookup.find(ids);
            overlay.prune(snapshot.watermark().logIndex());
            Map<UUID, byte[]> stored = new HashMap<>(snapshot.stored());
            boolean appended = false;
            for (WriteCommand c : batch) {
                WriteOutcome o = decide(c, stored);
                outcomes.add(o);
                appended |= o instanceof WriteOutcome.Accepted a && a.logIndex() >= 0;
            }
            if (appended) {
                appender.sync();
                afterSync.run();
            }
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).outcome().complete(outcomes.get(i));
            }
        } catch (RuntimeException e) {
            LOG.error("sequencer failed on a batch of {} requests", batch.size(), e);
            for (WriteCommand c : batch) {
                c.outcome().completeExceptionally(e);
            }
        } finally {
            batch.clear();
            outcomes.clear();
        }
    }

    private WriteOutcome decide(WriteCommand c, Map<UUID, byte[]> stored) {
        long now = Math.max(clock.millis(), lastStoredMillis);
        String storedText = Timestamps.format(now);
        String version = c.version() == XapiVersion.V2_0_0 ? "2.0.0" : "1.0.0";
        List<UUID> ids = new ArrayList<>(c.statements().size());
        List<UUID> newIds = new ArrayList<>();
        List<byte[]> newJson = new ArrayList<>();
        List<StoredStatement> out = new ArrayList<>();
        for (ParsedStatement p : c.statements()) {
            Statement s = p.statement();
            UUID id = s.id() != null ? s.id() : c.putId() != null ? c.putId() : UUID.randomUUID();
            ids.add(id);
            byte[] existing = overlay.get(id);
            if (existing == null) {
                existing = stored.get(id);
            }
            if (existing != null) {
                Statement before = StatementParser.parseOne(existing, XapiVersion.V2_0_0).statement();
                if (!Equivalence.equivalent(withId(s, id), before)) {
                    return new WriteOutcome.Conflict(id, "statement " + id
                            + " is already stored with different content; statements cannot be changed");
                }
                continue; // an equivalent statement is already stored: nothing to do
            }
            byte[] json = ExactWriter.write(p, id, storedText, c.authority(), version);
            out.add(new StoredStatement(id, now, json));
            newIds.add(id);
            newJson.add(json);
        }
        if (out.isEmpty()) {
            return new WriteOutcome.Accepted(ids, -1);
        }
        long index = appender.append(new StatementsStored(out));
        lastStoredMillis = now;
        overlay.add(index, newIds, newJson);
        return new WriteOutcome.Accepted(ids, index);
    }

    private static Statement withId(Statement s, UUID id) {
        return new Statement(id, s.actor(), s.verb(), s.object(), s.result(), s.context(), s.timestamp(), s.stored(),
                s.authority(), s.version(), s.attachments());
    }

    @Override
    public void onShutdown() {
        if (appender != null) {
            appender.sync();
            appender.close();
        }
    }
}
