package dev.cairn.projector;

import dev.cairn.xapi.AgentNames;
import dev.cairn.log.AttachmentContent;
import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.DocumentWritten;
import dev.cairn.log.LogEntry;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.ProjectedStatement;
import dev.cairn.xapi.ActivityDefinitions;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.StatementResidue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A log entry with the projector's CPU work done, none of which needs the database: each statement parsed, its
 * filter keys computed, the activity definitions and agent names it carries picked out (those the log gave before
 * left out). The projector prepares the next batch this way while it writes the current one.
 *
 * @param statements one per statement of a {@link StatementsStored} entry, in order; empty for document events
 */
record PreparedEntry(LogEntry entry, List<Prepared> statements) {

    /**
     * One statement ready to write.
     *
     * @param definitions and {@code names} leave out repeats, and are empty when its credential lacked the define
     *                    scope
     * @param carried     the SHA-2 hashes (lowercase) of its attachments whose content its request carried
     */
    record Prepared(ProjectedStatement projected, List<ActivityDefinitions.Defined> definitions,
                    List<AgentNames.Named> names, List<String> carried) {
        /** What an erasure left of a statement: its place, and the activity definitions and agent names it gave. */
        static Prepared erased(StoredStatement s, List<ActivityDefinitions.Defined> definitions,
                               List<AgentNames.Named> names) {
            return new Prepared(new ProjectedStatement(s.id(), s.storedMillis(), s.json(), null, false), definitions,
                    names, List.of());
        }

        boolean isErased() {
            return projected.keys() == null;
        }
    }

    /** Prepares {@code entry}, which follows the last entry {@code repeats} saw (or is the first it sees). */
    static PreparedEntry of(LogEntry entry, Repeats repeats) {
        if (!(entry.event() instanceof StatementsStored event)) {
            return new PreparedEntry(entry, List.of());
        }
        List<Prepared> out = new ArrayList<>(event.statements().size());
        for (StoredStatement s : event.statements()) {
            if (s.isErased()) {
                out.add(erased(s, event, entry, repeats));
                continue;
            }
            // The log holds only statements the sequencer accepted, so this parse fails only on a damaged entry
            // (one of format 1, which has no checksum); stored statements are read by the rules they were stored under.
            Statement statement;
            try {
                statement = StatementParser.parseStored(s.json()).statement();
            } catch (RuntimeException e) {
                throw new BadLogEntryException(entry.position(), "holds statement " + s.id() + " that does not parse: "
                        + e.getMessage());
            }
            ProjectedStatement p = new ProjectedStatement(s.id(), s.storedMillis(), s.json(), FilterKeys.of(statement),
                    statement.isVoiding());
            List<String> carried = carried(statement, event);
            // Without the define scope only the ids of activities and agents are kept (Communication 4.2).
            out.add(event.defines() ? new Prepared(p, repeats.newDefinitions(ActivityDefinitions.of(statement)),
                    repeats.newNames(AgentNames.of(statement)), carried) : new Prepared(p, List.of(), List.of(), carried));
        }
        return new PreparedEntry(entry, out);
    }

    /** An erased statement, with its residue's definitions and names when its credential could define them. */
    private static Prepared erased(StoredStatement s, StatementsStored event, LogEntry entry, Repeats repeats) {
        if (s.residue() == null || !event.defines()) {
            return Prepared.erased(s, List.of(), List.of());
        }
        StatementResidue residue;
        try {
            residue = StatementResidue.decode(s.residue());
        } catch (IllegalArgumentException e) {
            throw new BadLogEntryException(entry.position(), "holds the residue of erased statement " + s.id()
                    + " that does not read: " + e.getMessage());
        }
        return Prepared.erased(s, repeats.newDefinitions(residue.definitions()), repeats.newNames(residue.names()));
    }

    /** The hashes of {@code statement}'s attachments (its SubStatement's too) whose content the request carried. */
    private static List<String> carried(Statement statement, StatementsStored event) {
        if (event.attachments().isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(1);
        for (Attachment a : statement.allAttachments()) {
            String sha2 = a.sha2().toLowerCase(Locale.ROOT); // contents are stored by the hash in lowercase
            if (!out.contains(sha2) && event.attachments().stream().anyMatch(c -> c.sha2().equals(sha2))) {
                out.add(sha2);
            }
        }
        return out;
    }

    /** The bytes this entry holds in memory: its statements' JSON, its attachments' and its document's content. */
    long bytes() {
        if (entry.event() instanceof StatementsStored s) {
            long bytes = 0;
            for (StoredStatement st : s.statements()) {
                bytes += st.json().length;
            }
            for (AttachmentContent a : s.attachments()) {
                bytes += a.content().length;
            }
            return bytes;
        }
        return entry.event() instanceof DocumentWritten d ? d.content().length : 0;
    }

    /** How many statements (or documents) this entry changes. */
    int size() {
        return entry.event() instanceof StatementsStored s ? s.statements().size() : 1;
    }
}
