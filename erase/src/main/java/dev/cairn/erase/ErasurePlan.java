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
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.StatementParser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What an erasure changes in the log, found by reading it once from its start: for each entry that holds erased data,
 * the event that takes its place in the same bytes ({@link EventLog#rewrite}). Statements stored before a time or
 * named by id are removed; the people's statements are removed or rewritten ({@link StatementErasure}); their State
 * and Agent Profile documents' entries are voided; attachment contents that no statement kept in their entry names
 * go. A batch of erasures is one plan: one reading of the log, one rewrite, one rebuild of the tables.
 *
 * @param replacements by log position, in log order
 */
public record ErasurePlan(Map<Long, Event> replacements, Counts counts) {

    /** What to erase: people (by IFI), statements by id, statements stored before a time (null: none). */
    public record Request(List<Ifi> people, Set<UUID> statementIds, Long storedBeforeMillis) {
        public boolean isEmpty() {
            return people.isEmpty() && statementIds.isEmpty() && storedBeforeMillis == null;
        }
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
        StatementErasure people = new StatementErasure(request.people(), erasureId);
        Set<String> agentKeys = request.people().stream().map(Ifi::key).collect(Collectors.toSet());
        Map<Long, Event> replacements = new LinkedHashMap<>();
        long removed = 0;
        long rewritten = 0;
        long documents = 0;
        long bytes = 0;
        try (LogTailer tailer = log.tailer(EventLog.START)) {
            for (LogEntry e; (e = tailer.next()) != null; ) {
                Event replacement = null;
                if (e.event() instanceof StatementsStored stored) {
                    Rewrite r = rewrite(stored, request, people, e.length());
                    if (r != null) {
                        replacement = r.event();
                        removed += r.removed();
                        rewritten += r.rewritten();
                    }
                } else if (e.event() instanceof DocumentWritten w && agentKeys.contains(w.key().agent())
                        || e.event() instanceof DocumentsDeleted d && agentKeys.contains(d.key().agent())) {
                    replacement = EntryVoided.INSTANCE;
                    documents++;
                }
                if (replacement != null) {
                    replacements.put(e.position(), replacement);
                    bytes += e.length();
                }
            }
        }
        return new ErasurePlan(replacements, new Counts(removed, rewritten, documents, replacements.size(), bytes));
    }

    /** An entry's new statements, and how many of them were removed and rewritten. */
    private record Rewrite(StatementsStored event, long removed, long rewritten) {
    }

    /** The entry {@code stored} becomes, or null when the erasure leaves it as it is. */
    private static Rewrite rewrite(StatementsStored stored, Request request, StatementErasure people, int length) {
        List<StoredStatement> out = new ArrayList<>(stored.statements().size());
        List<Integer> rewrittenAt = new ArrayList<>();
        long removed = 0;
        for (StoredStatement s : stored.statements()) {
            if (s.isErased()) {
                out.add(s);
                continue;
            }
            boolean remove = request.statementIds().contains(s.id())
                    || request.storedBeforeMillis() != null && s.storedMillis() < request.storedBeforeMillis();
            StatementErasure.Decision d = remove ? StatementErasure.Decision.REMOVE
                    : request.people().isEmpty() ? StatementErasure.Decision.KEEP : people.decide(s.json());
            switch (d.action()) {
                case KEEP -> out.add(s);
                case REMOVE -> {
                    out.add(StoredStatement.erased(s.id(), s.storedMillis()));
                    removed++;
                }
                case REWRITE -> {
                    rewrittenAt.add(out.size());
                    out.add(new StoredStatement(s.id(), s.storedMillis(), d.json()));
                }
            }
        }
        if (removed == 0 && rewrittenAt.isEmpty()) {
            return null;
        }
        StatementsStored event = new StatementsStored(out, keptContents(stored.attachments(), out), stored.defines());
        // A rewritten statement may be longer than it was (a placeholder for a short address): the longest of them
        // are removed instead until the entry fits in its place.
        rewrittenAt.sort(Comparator.comparingInt((Integer i) -> out.get(i).json().length).reversed());
        int next = 0;
        while (EventCodec.rewrittenLength(event) > length) {
            if (next == rewrittenAt.size()) { // cannot be: a removed statement takes less than any statement took
                throw new IllegalStateException("an erased log entry does not fit in the " + length + " bytes it took");
            }
            int i = rewrittenAt.get(next++);
            out.set(i, StoredStatement.erased(out.get(i).id(), out.get(i).storedMillis()));
            removed++;
            event = new StatementsStored(out, keptContents(stored.attachments(), out), stored.defines());
        }
        return new Rewrite(event, removed, rewrittenAt.size() - next);
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
