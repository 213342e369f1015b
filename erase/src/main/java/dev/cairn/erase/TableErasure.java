package dev.cairn.erase;

import dev.cairn.log.Event;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.ProjectedStatement;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.xapi.AgentNames;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Changes only the rows of the tables an erasure touches, in one transaction that also records the erasure, so that
 * they hold what a replay of the log gives once the plan's entries are rewritten (docs/erasure.md, "How the log keeps
 * being the source of truth"): the statements removed and rewritten and those their rows depend on
 * ({@link ProjectionWriter#erase}), the people's documents, names and filter keys, and the activity definitions and
 * other agents' names that held their addresses. The log is rewritten after this commits.
 *
 * <p>Statements chosen by id or by a retention period go the same way, and so do the names and agent filter keys of
 * the agents the erasure leaves nothing of ({@link ChosenNames}).
 *
 * <p>Some erasures cannot be matched row by row, and their tables are rebuilt from the rewritten log instead
 * ({@link #whyRebuild}, {@link Outcome#REBUILD}): statements chosen by id or time together with people, whose names
 * are judged otherwise; an erasure whose people are named inside another key (an activity IRI, another agent's
 * identifier), which the rewrite changes; and one whose entries could not keep a removed statement's definitions (the
 * largest residues go when an entry does not fit in its place).
 */
public final class TableErasure {
    /** What became of the transaction. */
    public enum Outcome { COMMITTED, REBUILD }

    /**
     * The most bytes of log writes kept from the tables' pass for the log's rewrite: past it they are worked out again
     * then (an entry rewritten before is written whole, as type 5), which reads and decodes the touched entries once
     * more (26 s of a 10,000,000-statement log's erasure of 100 people). A quarter of the heap, at least 256 MiB and
     * at most 1 GiB: a removed statement's slot is about its size.
     */
    private static final long KEPT_REWRITE_BYTES = Math.min(1L << 30,
            Math.max(256L << 20, Runtime.getRuntime().maxMemory() / 4));

    /**
     * @param rewrites the log's rewrite, worked out in the same pass over the entries (written once the tables are
     *                 committed), or null when it was too large to keep
     */
    public record Result(Outcome outcome, List<EventLog.Rewrite> rewrites) {
    }

    private final EventLog log;
    private final ErasurePlan plan;
    private final ErasureStore store;
    private final StatementErasure people;

    public TableErasure(EventLog log, ErasurePlan plan, ErasureStore store) {
        this.log = log;
        this.plan = plan;
        this.store = store;
        this.people = plan.people();
    }

    /** Why this erasure's tables must be rebuilt from the log instead of changed row by row; empty when they need not. */
    public Optional<String> whyRebuild() {
        if (plan.request().choosesAny() && !plan.request().people().isEmpty()) {
            return Optional.of("statements chosen by id or stored time together with people");
        }
        if (!store.deletesLeaveNoCopies()) {
            return Optional.of("a database created by an earlier release may keep stale copies of rows in its free "
                    + "pages: a new one is built");
        }
        Set<String> own = new HashSet<>();
        for (String key : people.keys()) {
            own.add(FilterKey.Kind.AGENT.ordinal() + ":" + key);
            own.add(FilterKey.Kind.AUTHORITY.ordinal() + ":" + key);
        }
        for (String key : store.keys(people::mayChange)) {
            if (!own.contains(key)) {
                return Optional.of("a key other than the people's own holds one of their identifiers");
            }
        }
        return Optional.empty();
    }

    /**
     * Changes the rows in one transaction of {@code writer} that also records {@code record} under the plan's erasure
     * id, a batch of at most {@code batchBytes} of log entries at a time, and works out the log's rewrite in the same
     * pass; rolls back and says {@link Outcome#REBUILD} when a removed statement's residue had to go.
     */
    public Result apply(ProjectionWriter writer, ErasureStore.Erasure record, long batchBytes) {
        List<EventLog.Rewrite> rewrites = new ArrayList<>();
        long kept = 0;
        ErasurePlan.Residues residues = plan.residues();
        try (LogTailer tailer = log.tailer(EventLog.START)) {
            for (List<ErasurePlan.Entry> batch : plan.batches(batchBytes)) {
                Set<UUID> removed = new LinkedHashSet<>();
                Map<UUID, ProjectedStatement> rewritten = new HashMap<>();
                Map<Long, Event> replacements = new LinkedHashMap<>();
                for (ErasurePlan.Change c : plan.changes(tailer, batch)) {
                    if (c.entry().event() instanceof StatementsStored was
                            && !statements(was, (StatementsStored) c.replacement(), residues, removed, rewritten)) {
                        writer.rollback();
                        return new Result(Outcome.REBUILD, null);
                    }
                    replacements.put(c.entry().position(), c.replacement());
                }
                writer.erase(removed, rewritten);
                if (rewrites != null) {
                    EventLog.Rewrite r = log.prepareRewrite(replacements);
                    kept += r.bytes();
                    rewrites.add(r);
                    if (kept > KEPT_REWRITE_BYTES) {
                        rewrites = null;
                    }
                }
            }
            writer.forgetPeople(people.keys());
            if (plan.names() != null) {
                writer.forgetExpiredAgents(plan.names().dropped());
            }
            store.activityDefinitions(people::mayName).forEach((id, definition) -> {
                byte[] scrubbed = people.scrubDefinition(definition);
                if (scrubbed != null) {
                    writer.replaceActivityDefinition(id, scrubbed);
                }
            });
            for (AgentNames.Named n : store.agentNames(people::mayName)) {
                String renamed = people.keys().contains(n.ifiKey()) ? null : people.scrub(n.name());
                if (renamed != null) {
                    writer.renameAgent(n.ifiKey(), n.name(), renamed);
                }
            }
            writer.recordErasure(record, plan.erasureId());
            writer.commitErasure();
            return new Result(Outcome.COMMITTED, rewrites);
        } catch (RuntimeException e) {
            writer.rollback();
            throw e;
        }
    }

    /**
     * Adds what the erasure does to the statements of one entry to {@code removed} and {@code rewritten}, and judges
     * every agent a statement chosen by id or time names ({@link ChosenNames#keeps}: those left with nothing go from the
     * tables); false when a removed statement lost the residue it gives, or an earlier tombstone its residue (the entry
     * could not hold it), which no row change can match.
     */
    private boolean statements(StatementsStored was, StatementsStored now, ErasurePlan.Residues residues,
                               Set<UUID> removed, Map<UUID, ProjectedStatement> rewritten) {
        for (int i = 0; i < was.statements().size(); i++) {
            StoredStatement before = was.statements().get(i);
            StoredStatement after = now.statements().get(i);
            if (before.isErased()) {
                // A tombstone's residue scrubbed changes only shared rows, which the scans find; one dropped to make
                // the entry fit takes definitions and names with it, which no row change matches.
                if (after.residue() == null && residues.ofTombstone(before) != null) {
                    return false;
                }
                continue;
            }
            if (after == before) {
                continue;
            }
            if (after.isErased()) {
                boolean chosen = plan.request().chooses(before);
                if (after.residue() == null && residues.ofRemoved(before, was.defines(), chosen) != null) {
                    return false;
                }
                if (chosen && plan.names() != null) {
                    ErasurePlan.agentKeys(StatementParser.parseStored(before.json()).statement())
                            .forEach(plan.names()::keeps);
                }
                removed.add(before.id());
            } else {
                Statement parsed = StatementParser.parseStored(after.json()).statement();
                rewritten.put(after.id(), new ProjectedStatement(after.id(), after.storedMillis(), after.json(),
                        FilterKeys.of(parsed), parsed.isVoiding()));
            }
        }
        return true;
    }
}
