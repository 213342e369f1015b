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
 * Which agents keep the names that the statements an erasure chooses (by id or stored time: {@link
 * ErasurePlan.Request#chooses}) gave them (docs/erasure.md, "Retention and disk space"): those a statement it keeps
 * names, voided or not, or the residue of a tombstone it keeps, who are still in the store; their names stay in the
 * removed statements' residues. The others, whose every statement it removes, lose their names from those residues,
 * from the residues of earlier erasures' tombstones it chooses too, and from the tables, so that a replay of the
 * rewritten log gives what the erasure left and no file keeps their identifiers in a name. Each agent is judged once
 * and remembered, so that the plan's entries come out the same each time they are worked out.
 */
final class ChosenNames {
    private final ErasurePlan.Request request;
    private final Set<String> inKeptResidues;
    private final Predicate<String> namedByKept;
    private final Map<String, Boolean> keeps = new HashMap<>();

    private ChosenNames(ErasurePlan.Request request, Set<String> inKeptResidues, Predicate<String> namedByKept) {
        this.request = request;
        this.inKeptResidues = inKeptResidues;
        this.namedByKept = namedByKept;
    }

    /**
     * Reads the entries earlier erasures rewrote, up to position {@code upTo}, for the agents named in the residues the
     * erasure keeps; {@code namedByKept} says whether a statement it keeps names an agent (its IFI key).
     */
    static ChosenNames find(EventLog log, ErasurePlan.Request request, long upTo, Predicate<String> namedByKept) {
        Set<String> named = new HashSet<>();
        try (LogTailer tailer = log.tailer(EventLog.START)) {
            for (LogEntry e; (e = tailer.next(EventCodec::isRewritten)) != null && e.position() <= upTo; ) {
                if (e.event() instanceof StatementsStored stored) {
                    for (StoredStatement s : stored.statements()) {
                        if (s.isErased() && s.residue() != null && !request.chooses(s)) {
                            for (AgentNames.Named n : StatementResidue.decode(s.residue()).names()) {
                                named.add(n.ifiKey());
                            }
                        }
                    }
                }
            }
        }
        return new ChosenNames(request, named, namedByKept);
    }

    /** Whether the erasure removes {@code s} (or, a tombstone, takes names out of its residue). */
    boolean removes(StoredStatement s) {
        return request.chooses(s);
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
     * The residue of an earlier erasure's tombstone this one chooses without the names of agents that lose them; null
     * when it names none, no bytes when nothing is left.
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
