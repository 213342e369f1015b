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
import dev.cairn.xapi.AnyOf;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.StatementParser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

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
 */
public record ErasurePlan(Request request, String erasureId, List<Entry> entries, Counts counts, Set<UUID> removedIds) {

    /** What to erase: people (by IFI), statements by id, statements stored before a time (null: none). */
    public record Request(List<Ifi> people, Set<UUID> statementIds, Long storedBeforeMillis) {
        public boolean isEmpty() {
            return people.isEmpty() && statementIds.isEmpty() && storedBeforeMillis == null;
        }
    }

    /** An entry the erasure rewrites: its position in the log and its length. */
    public record Entry(long position, int length) {
    }

    /** What a plan does, for the dry run and the report. */
    public record Counts(long statementsRemoved, long statementsRewritten, long documentEntries, long entries,
                         long bytes) {
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

    /** Reads {@code log} from its start and plans {@code request}, its placeholder named by {@code erasureId}. */
    public static ErasurePlan of(EventLog log, Request request, String erasureId) {
        return of(log, request, erasureId, Long.MAX_VALUE);
    }

    /**
     * As {@link #of(EventLog, Request, String)} for the entries up to position {@code upTo} only: an erasure beside a
     * running ingest erases what was stored before it, and what follows is new data.
     */
    public static ErasurePlan of(EventLog log, Request request, String erasureId, long upTo) {
        StatementErasure people = new StatementErasure(request.people(), erasureId);
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
                Event replacement = replacement(e, request, people);
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
                bytes), removedIds);
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

    /** The changes of {@code batch}'s entries, which this plan found (the same each time), in log order. */
    public List<Change> changes(EventLog log, List<Entry> batch) {
        StatementErasure people = people();
        List<Change> out = new ArrayList<>(batch.size());
        try (LogTailer tailer = log.tailer(EventLog.START)) {
            for (Entry entry : batch) {
                LogEntry e = tailer.at(entry.position());
                Event replacement = replacement(e, request, people);
                if (replacement == null) {
                    throw new IllegalStateException("log entry " + Long.toHexString(entry.position())
                            + " changed since the erasure was planned");
                }
                out.add(new Change(e, replacement));
            }
        }
        return out;
    }

    /** The events that take the places of {@code batch}'s entries, by position ({@link EventLog#rewrite}). */
    public Map<Long, Event> replacements(EventLog log, List<Entry> batch) {
        Map<Long, Event> out = new LinkedHashMap<>();
        for (Change c : changes(log, batch)) {
            out.put(c.entry().position(), c.replacement());
        }
        return out;
    }

    /** What this erasure does to a statement, a residue, a definition or a name. */
    StatementErasure people() {
        return new StatementErasure(request.people(), erasureId);
    }

    /** The event that takes the place of {@code e}, or null when the erasure leaves it as it is. */
    private static Event replacement(LogEntry e, Request request, StatementErasure people) {
        Set<String> agentKeys = people.keys();
        if (e.event() instanceof StatementsStored stored) {
            return rewrite(stored, request, people, e.length());
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
    private static StatementsStored rewrite(StatementsStored stored, Request request, StatementErasure people,
                                            int length) {
        List<StoredStatement> out = new ArrayList<>(stored.statements().size());
        List<Integer> rewrittenAt = new ArrayList<>();
        boolean removed = false;
        for (StoredStatement s : stored.statements()) {
            if (s.isErased()) {
                // An earlier erasure's residue may name one of these people in a definition's text.
                byte[] scrubbed = s.residue() == null || request.people().isEmpty() ? null
                        : people.scrubResidue(s.residue());
                out.add(scrubbed == null ? s : StoredStatement.erased(s.id(), s.storedMillis(),
                        scrubbed.length == 0 ? null : scrubbed));
                removed |= scrubbed != null;
                continue;
            }
            boolean chosen = request.statementIds().contains(s.id())
                    || request.storedBeforeMillis() != null && s.storedMillis() < request.storedBeforeMillis();
            StatementErasure.Decision d = chosen ? StatementErasure.Decision.REMOVE
                    : request.people().isEmpty() ? StatementErasure.Decision.KEEP : people.decide(s.json());
            switch (d.action()) {
                case KEEP -> out.add(s);
                case REMOVE -> {
                    out.add(removed(s, stored.defines(), !chosen, people));
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
                out.set(i, removed(stored.statements().get(i), stored.defines(), true, people));
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
     * What is left of {@code s} once removed: its place, and its residue (what it gave the shared tables, without the
     * people) when its credential could define activities and names. Only a statement removed because of a person
     * ({@code names}) keeps the names it gave others: one removed by id or by a retention period goes with every
     * identifier it held, since its own people are not erased and would stay in its place otherwise.
     */
    private static StoredStatement removed(StoredStatement s, boolean defines, boolean names, StatementErasure people) {
        return StoredStatement.erased(s.id(), s.storedMillis(), defines ? people.residue(s.json(), names) : null);
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
