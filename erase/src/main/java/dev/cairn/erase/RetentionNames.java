package dev.cairn.erase;

import dev.cairn.log.EventCodec;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.xapi.AgentNames;
import dev.cairn.xapi.StatementResidue;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Which agents keep the names that the statements a retention period removes gave them (docs/erasure.md, "Retention"):
 * those a kept statement or a kept residue names, who are still in the store; their names stay in the removed
 * statements' residues. The others, whose every statement the period removes, lose their names from those residues,
 * from the residues of earlier erasures in the removed part of the log, and from the tables, so that a replay of the
 * rewritten log gives what the erasure left and no file keeps an expired learner's identifier in a name. Each agent is
 * judged once and remembered, so that the plan's entries come out the same each time they are worked out.
 */
final class RetentionNames {
    private final long storedBeforeMillis;
    private final Set<String> inKeptResidues;
    private final Predicate<String> namedByKept;
    private final Map<String, Boolean> keeps = new HashMap<>();

    private RetentionNames(long storedBeforeMillis, Set<String> inKeptResidues, Predicate<String> namedByKept) {
        this.storedBeforeMillis = storedBeforeMillis;
        this.inKeptResidues = inKeptResidues;
        this.namedByKept = namedByKept;
    }

    /**
     * Reads the entries earlier erasures rewrote, up to position {@code upTo}, for the agents named in the residues the
     * period keeps; {@code namedByKept} says whether a statement the period keeps names an agent (its IFI key).
     */
    static RetentionNames find(EventLog log, long storedBeforeMillis, long upTo, Predicate<String> namedByKept) {
        Set<String> named = new HashSet<>();
        try (LogTailer tailer = log.tailer(EventLog.START)) {
            for (LogEntry e; (e = tailer.next(EventCodec::isRewritten)) != null && e.position() <= upTo; ) {
                if (e.event() instanceof StatementsStored stored) {
                    for (StoredStatement s : stored.statements()) {
                        if (s.isErased() && s.residue() != null && s.storedMillis() >= storedBeforeMillis) {
                            for (AgentNames.Named n : StatementResidue.decode(s.residue()).names()) {
                                named.add(n.ifiKey());
                            }
                        }
                    }
                }
            }
        }
        return new RetentionNames(storedBeforeMillis, named, namedByKept);
    }

    /** Whether the period removes {@code s} (or, a tombstone, the part of the log that holds it). */
    boolean removes(StoredStatement s) {
        return s.storedMillis() < storedBeforeMillis;
    }

    /** Whether the agent with this IFI key keeps its names. */
    boolean keeps(String agentKey) {
        return keeps.computeIfAbsent(agentKey, k -> inKeptResidues.contains(k) || namedByKept.test(k));
    }

    /** The agents judged so far that lose their names, sorted. */
    Set<String> dropped() {
        Set<String> out = new TreeSet<>();
        keeps.forEach((agent, kept) -> {
            if (!kept) {
                out.add(agent);
            }
        });
        return out;
    }

    /**
     * The residue an earlier erasure left in the removed part of the log without the names of agents that lose them;
     * null when it names none, no bytes when nothing is left.
     */
    byte[] scrub(byte[] residue) {
        StatementResidue read = StatementResidue.decode(residue);
        StatementResidue kept = read.withoutNamesOf(agent -> !keeps(agent));
        if (kept == read) {
            return null;
        }
        return kept.isEmpty() ? new byte[0] : kept.encode();
    }
}
