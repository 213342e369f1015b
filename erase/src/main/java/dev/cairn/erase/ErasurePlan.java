package dev.cairn.erase;

import dev.cairn.log.AttachmentContent;
import dev.cairn.log.DocumentWritten;
import dev.cairn.log.DocumentsDeleted;
import dev.cairn.log.EntryVoided;
import dev.cairn.log.Event;
import dev.cairn.log.EventCodec;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.ErasureStore;
import dev.cairn.xapi.AnyOf;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * What an erasure changes in the log, found by reading it once from its start: the entries that hold erased data, by
 * position and length, and what the change does. Statements stored before a time or named by id are removed; the
 * people's statements are removed or rewritten ({@link StatementErasure}); their State and Agent Profile documents'
 * entries are voided; attachment contents that no statement kept in their entry names go. The event that takes each
 * entry's place in its bytes ({@link EventLog#rewrite}) is made again from the entry when it is rewritten
 * ({@link #replacements}), a batch at a time, so that a plan holds no statements: an erasure whose person is in every
 * entry of a large log needs no more memory than one of a few. A batch of erasures is one plan: one reading of the
 * log, one rewrite, one rebuild of the tables.
 *
 * @param entries    the positions of the entries to rewrite, in log order, with each one's length in bytes
 * @param removedIds the ids of the statements removed because of the people or named by id (not those a retention
 *                   period removes, which may be most of the log)
 * @param names      which agents keep the names that the statements the request chooses (by id or stored time) gave
 *                   them; null when it chooses none, or the plan only counts (a dry run) and cannot be applied
 */
public record ErasurePlan(Request request, String erasureId, List<Entry> entries, Counts counts, Set<UUID> removedIds,
                          ChosenNames names) {

    /** What to erase: people (by IFI), statements by id, statements stored before a time (null: none). */
    public record Request(List<Ifi> people, Set<UUID> statementIds, Long storedBeforeMillis) {
        public boolean isEmpty() {
            return people.isEmpty() && statementIds.isEmpty() && storedBeforeMillis == null;
        }

        /** Whether it removes statements by id or stored time (a retention period), whoever they name. */
        public boolean choosesAny() {
            return !statementIds.isEmpty() || storedBeforeMillis != null;
        }

        /** Whether {@code s} is removed by its id or by the retention period, whoever it names. */
        boolean chooses(StoredStatement s) {
            return statementIds.contains(s.id()) || storedBeforeMillis != null && s.storedMillis() < storedBeforeMillis;
        }
    }

    /** An entry the erasure rewrites: its position in the log and its length. */
    public record Entry(long position, int length) {
    }

    /** What a plan does, for the dry run and the report. */
    public record Counts(long statementsRemoved, long statementsRewritten, long documentEntries, long entries,
                         long bytes) {
        /** A plan that changes nothing. */
        public static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        public boolean isEmpty() {
            return entries == 0;
        }
    }

    /**
     * A new erasure's id, which names its placeholder agent: random, never derived from what it erases, and short
     * (eight hex digits), since a rewritten statement must fit in the bytes it took.
     */
    public static String newErasureId() {
        return String.format("%08x", new java.security.SecureRandom().nextInt());
    }

    /**
     * Counts what {@code request} would erase in the entries up to position {@code upTo}, for a dry run: the plan cannot
     * be applied when the request chooses statements by id or stored time, whose names it does not judge.
     */
    public static ErasurePlan counting(EventLog log, Request request, String erasureId, long upTo) {
        return of(log, request, erasureId, upTo, null);
    }

    /**
     * For a request that chooses statements by id or stored time, whether a statement it keeps names the agent with
     * this IFI key itself (not only through a StatementRef to one it removes), voided or not, as the tables say: for
     * {@link #of}. Empty when the tables hold a statement stored before the request's time after one stored at or after
     * it (never written by Cairn), which a plan by rows cannot judge.
     */
    public static Optional<Predicate<String>> namedByKept(ErasureStore store, Request request) {
        Optional<ErasureStore.KeptStatements> kept = store.keptFrom(request.storedBeforeMillis() == null
                ? Long.MIN_VALUE : request.storedBeforeMillis());
        if (kept.isEmpty()) {
            return Optional.empty();
        }
        Set<String> inVoided = new HashSet<>();
        kept.get().forEachVoided(json -> {
            Statement s = StatementParser.parseStored(json).statement();
            if (!request.statementIds().contains(s.id())) {
                inVoided.addAll(agentKeys(s));
            }
        });
        return Optional.of(agent -> inVoided.contains(agent) || kept.get().anyMatching(agent, json -> {
            Statement s = StatementParser.parseStored(json).statement();
            return !request.statementIds().contains(s.id()) && agentKeys(s).contains(agent);
        }));
    }

    /** The IFI keys of the agents {@code s} names itself (authority and group members included). */
    static Set<String> agentKeys(Statement s) {
        Set<String> out = new HashSet<>();
        for (FilterKey k : FilterKeys.of(s).keys().keySet()) {
            if (k.kind() == FilterKey.Kind.AGENT) {
                out.add(k.value());
            }
        }
        return out;
    }

    /**
     * Reads {@code log} from its start and plans {@code request}, its placeholder named by {@code erasureId}, in the
     * entries up to position {@code upTo} only: an erasure beside a running ingest erases what was stored before it,
     * and what follows is new data. When the request chooses statements by id or stored time, {@code namedByKept} says
     * whether a statement it keeps names an agent (by its IFI key; {@link #namedByKept}): such agents keep the names
     * the removed statements gave them ({@link ChosenNames}).
     */
    public static ErasurePlan of(EventLog log, Request request, String erasureId, long upTo,
                                 Predicate<String> namedByKept) {
        StatementErasure people = new StatementErasure(request.people(), erasureId);
        ChosenNames names = !request.choosesAny() || namedByKept == null ? null
                : ChosenNames.find(log, request, upTo, namedByKept);
        Residues residues = new Residues(request, people, names);
        List<Entry> entries = new ArrayList<>();
        Set<UUID> removedIds = new LinkedHashSet<>();
        long removed = 0;
        long rewritten = 0;
        long documents = 0;
        long bytes = 0;
        LogTailer.Filter filter = filter(request, people);
        boolean onlyRetention = request.people().isEmpty() && request.statementIds().isEmpty()
                && request.storedBeforeMillis() != null;
        try (LogTailer tailer = log.tailer(EventLog.START)) {
            for (LogEntry e; (e = tailer.next(filter)) != null && e.position() <= upTo; ) {
                if (onlyRetention && e.event() instanceof StatementsStored stored && !stored.statements().isEmpty()
                        && stored.statements().get(0).storedMillis() >= request.storedBeforeMillis()) {
                    break; // stored times never decrease along the log: nothing after this is old enough
                }
                Event replacement = replacement(e, residues);
                if (replacement == null) {
                    continue;
                }
                entries.add(new Entry(e.position(), e.length()));
                bytes += e.length();
                if (replacement instanceof EntryVoided) {
                    documents++;
                    continue;
                }
                List<StoredStatement> before = ((StatementsStored) e.event()).statements();
                List<StoredStatement> after = ((StatementsStored) replacement).statements();
                for (int i = 0; i < after.size(); i++) {
                    StoredStatement was = before.get(i);
                    StoredStatement now = after.get(i);
                    if (now.isErased() && !was.isErased()) {
                        removed++;
                        if (request.storedBeforeMillis() == null || was.storedMillis() >= request.storedBeforeMillis()) {
                            removedIds.add(was.id());
                        }
                    } else if (now != was && !now.isErased()) { // (a tombstone's residue scrubbed counts as neither)
                        rewritten++;
                    }
                }
            }
        }
        return new ErasurePlan(request, erasureId, entries, new Counts(removed, rewritten, documents, entries.size(),
                bytes), removedIds, names);
    }

    /**
     * Which entries may hold what {@code request} erases, judged from their raw bytes: those that hold one of the
     * people's identifying strings (in a statement, a residue or a document's key) or one of the statement ids as an
     * entry spells it; every entry for a retention period, which goes by stored times.
     */
    private static LogTailer.Filter filter(Request request, StatementErasure people) {
        if (request.storedBeforeMillis() != null) {
            return (bytes, length) -> true;
        }
        List<byte[]> needles = new ArrayList<>(request.people().isEmpty() ? List.of() : people.needles());
        for (UUID id : request.statementIds()) {
            needles.add(EventCodec.idBytes(id));
        }
        AnyOf any = AnyOf.of(needles);
        return any::in;
    }

    /** One entry's change: the entry as the log holds it, and the event that takes its place. */
    public record Change(LogEntry entry, Event replacement) {
    }

    /**
     * The entries in batches of at most {@code bytes} (but one larger entry alone), so that no more of the log is
     * held in memory at once.
     */
    public List<List<Entry>> batches(long bytes) {
        List<List<Entry>> out = new ArrayList<>();
        List<Entry> batch = new ArrayList<>();
        long size = 0;
        for (Entry e : entries) {
            if (!batch.isEmpty() && size + e.length() > bytes) {
                out.add(batch);
                batch = new ArrayList<>();
                size = 0;
            }
            batch.add(e);
            size += e.length();
        }
        if (!batch.isEmpty()) {
            out.add(batch);
        }
        return out;
    }

    /**
     * The changes of {@code batch}'s entries, which this plan found (the same each time), in log order, read with
     * {@code tailer} (one for every batch of a pass: each new one maps the log's files again).
     */
    public List<Change> changes(LogTailer tailer, List<Entry> batch) {
        if (request.choosesAny() && names == null) {
            throw new IllegalStateException("a plan that only counts statements chosen by id or time is applied");
        }
        Residues residues = residues();
        List<Change> out = new ArrayList<>(batch.size());
        for (Entry entry : batch) {
            LogEntry e = tailer.at(entry.position());
            Event replacement = replacement(e, residues);
            if (replacement == null) {
                throw new IllegalStateException("log entry " + Long.toHexString(entry.position())
                        + " changed since the erasure was planned");
            }
            out.add(new Change(e, replacement));
        }
        return out;
    }

    /** The events that take the places of {@code batch}'s entries, by position ({@link EventLog#rewrite}). */
    public Map<Long, Event> replacements(LogTailer tailer, List<Entry> batch) {
        Map<Long, Event> out = new LinkedHashMap<>();
        for (Change c : changes(tailer, batch)) {
            out.put(c.entry().position(), c.replacement());
        }
        return out;
    }

    /** What this erasure does to a statement, a residue, a definition or a name. */
    StatementErasure people() {
        return new StatementErasure(request.people(), erasureId);
    }

    /** What this erasure leaves in the places of the statements it removes. */
    Residues residues() {
        return new Residues(request, people(), names);
    }

    /** The event that takes the place of {@code e}, or null when the erasure leaves it as it is. */
    private static Event replacement(LogEntry e, Residues residues) {
        Set<String> agentKeys = residues.people().keys();
        if (e.event() instanceof StatementsStored stored) {
            return rewrite(stored, residues, e.length());
        }
        if (e.event() instanceof DocumentWritten w && agentKeys.contains(w.key().agent())
                || e.event() instanceof DocumentsDeleted d && agentKeys.contains(d.key().agent())) {
            return EntryVoided.INSTANCE;
        }
        return null;
    }

    /**
     * The entry {@code stored} becomes, or null when the erasure leaves it as it is: a statement it keeps is the same
     * object, one it removes an erased one, one it rewrites a new one.
     */
    private static StatementsStored rewrite(StatementsStored stored, Residues residues, int length) {
        Request request = residues.request();
        StatementErasure people = residues.people();
        List<StoredStatement> out = new ArrayList<>(stored.statements().size());
        List<Integer> rewrittenAt = new ArrayList<>();
        boolean removed = false;
        for (StoredStatement s : stored.statements()) {
            if (s.isErased()) {
                byte[] residue = residues.ofTombstone(s);
                boolean scrubbed = residue != s.residue();
                out.add(scrubbed ? StoredStatement.erased(s.id(), s.storedMillis(), residue) : s);
                removed |= scrubbed;
                continue;
            }
            boolean chosen = request.chooses(s);
            StatementErasure.Decision d = chosen ? StatementErasure.Decision.REMOVE
                    : request.people().isEmpty() ? StatementErasure.Decision.KEEP : people.decide(s.json());
            switch (d.action()) {
                case KEEP -> out.add(s);
                case REMOVE -> {
                    out.add(StoredStatement.erased(s.id(), s.storedMillis(), residues.ofRemoved(s, stored.defines(),
                            chosen)));
                    removed = true;
                }
                case REWRITE -> {
                    rewrittenAt.add(out.size());
                    out.add(new StoredStatement(s.id(), s.storedMillis(), d.json()));
                }
            }
        }
        if (!removed && rewrittenAt.isEmpty()) {
            return null;
        }
        StatementsStored event = new StatementsStored(out, keptContents(stored.attachments(), out), stored.defines());
        // A rewritten statement may be longer than it was (a placeholder for a short address): the longest of them
        // are removed instead until the entry fits in its place.
        rewrittenAt.sort(Comparator.comparingInt((Integer i) -> out.get(i).json().length).reversed());
        int next = 0;
        while (EventCodec.rewrittenLength(event) > length) {
            if (next < rewrittenAt.size()) {
                int i = rewrittenAt.get(next++);
                StoredStatement s = stored.statements().get(i);
                out.set(i, StoredStatement.erased(s.id(), s.storedMillis(), residues.ofRemoved(s, stored.defines(),
                        false)));
            } else {
                // A residue is a part of its statement, with its id, actor, verb, stored time and authority gone, but
                // written again (a number may grow: 1e6 is 1.0E+6) and scrubbed (a short address grows to "erased"):
                // rather than leave a person unerasable, the largest residues go, and with them their definitions.
                int largest = -1;
                for (int i = 0; i < out.size(); i++) {
                    if (out.get(i).residue() != null
                            && (largest < 0 || out.get(i).residue().length > out.get(largest).residue().length)) {
                        largest = i;
                    }
                }
                if (largest < 0) { // cannot be: an entry of tombstones alone is shorter than any entry of statements
                    throw new IllegalStateException("an erased log entry does not fit in the " + length + " bytes it took");
                }
                out.set(largest, StoredStatement.erased(out.get(largest).id(), out.get(largest).storedMillis()));
            }
            event = new StatementsStored(out, keptContents(stored.attachments(), out), stored.defines());
        }
        return event;
    }

    /**
     * What an erasure leaves in a removed statement's place: its residue, what it gave the shared tables (activity
     * definitions, and names), without the people, when its credential could define them.
     */
    record Residues(Request request, StatementErasure people, ChosenNames names) {
        /**
         * The residue of {@code s}, removed: a statement removed because of a person keeps the names it gave others;
         * one chosen by id or stored time keeps those of the agents still in the store ({@link ChosenNames}; in a plan
         * that only counts, none). Null when nothing is left.
         */
        byte[] ofRemoved(StoredStatement s, boolean defines, boolean chosen) {
            if (!defines) {
                return null;
            }
            Predicate<String> keepsName = !chosen ? agent -> true : names != null ? names::keeps : agent -> false;
            return people.residue(s.json(), keepsName);
        }

        /**
         * The residue the tombstone {@code s} of an earlier erasure keeps: the same bytes when the erasure takes nothing
         * out of it, otherwise without the people (whose addresses a definition's text may hold) and, when the erasure
         * chooses it (by id or stored time), without the names of the agents that lose them; null when nothing is left.
         */
        byte[] ofTombstone(StoredStatement s) {
            byte[] residue = s.residue();
            if (residue != null && !request.people().isEmpty()) {
                byte[] scrubbed = people.scrubResidue(residue);
                residue = scrubbed == null ? residue : scrubbed.length == 0 ? null : scrubbed;
            }
            if (residue != null && names != null && names.removes(s)) {
                byte[] scrubbed = names.scrub(residue);
                residue = scrubbed == null ? residue : scrubbed.length == 0 ? null : scrubbed;
            }
            return residue;
        }
    }

    /** The attachment contents some statement that is kept in the entry names (its SubStatement's too). */
    private static List<AttachmentContent> keptContents(List<AttachmentContent> contents, List<StoredStatement> kept) {
        if (contents.isEmpty()) {
            return contents;
        }
        Set<String> named = new HashSet<>();
        for (StoredStatement s : kept) {
            if (!s.isErased()) {
                for (Attachment a : StatementParser.parseStored(s.json()).statement().allAttachments()) {
                    named.add(a.sha2().toLowerCase(Locale.ROOT));
                }
            }
        }
        return contents.stream().filter(c -> named.contains(c.sha2())).toList();
    }
}
