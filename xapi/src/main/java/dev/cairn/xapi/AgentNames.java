package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.List;

/**
 * The names statements give each agent and group IFI, which the projector remembers for the Person objects of /agents
 * and an erasure keeps in a removed statement's residue ({@link StatementResidue}).
 */
public final class AgentNames {
    /** A name a statement gives the agent or group with this IFI key. */
    public record Named(String ifiKey, String name) {
    }

    private AgentNames() {
    }

    /** Every (IFI, name) pair a statement holds, in statement order. */
    public static List<Named> of(Statement s) {
        List<Named> out = new ArrayList<>(2);
        record(s, out);
        return out;
    }

    private static void record(Statement s, List<Named> out) {
        actor(s.actor(), out);
        if (s.object() instanceof Actor a) {
            actor(a, out);
        } else if (s.object() instanceof SubStatement sub) {
            actor(sub.actor(), out);
            if (sub.object() instanceof Actor a) {
                actor(a, out);
            }
            context(sub.context(), out);
        }
        context(s.context(), out);
    }

    private static void context(Context c, List<Named> out) {
        if (c == null) {
            return;
        }
        if (c.instructor() != null) {
            actor(c.instructor(), out);
        }
        if (c.team() != null) {
            actor(c.team(), out);
        }
        if (c.contextAgents() != null) {
            for (ContextAgent ca : c.contextAgents()) {
                actor(ca.agent(), out);
            }
        }
        if (c.contextGroups() != null) {
            for (ContextGroup cg : c.contextGroups()) {
                actor(cg.group(), out);
            }
        }
    }

    private static void actor(Actor a, List<Named> out) {
        if (a.ifi() != null && a.name() != null) {
            out.add(new Named(a.ifi().key(), a.name()));
        }
        if (a instanceof Group g) {
            for (Agent member : g.members()) {
                actor(member, out);
            }
        }
    }
}
