package dev.cairn.projector;

import dev.cairn.xapi.Actor;
import dev.cairn.xapi.Agent;
import dev.cairn.xapi.Context;
import dev.cairn.xapi.ContextAgent;
import dev.cairn.xapi.ContextGroup;
import dev.cairn.xapi.Group;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.SubStatement;
import java.util.ArrayList;
import java.util.List;

/** Remembers the names statements give each agent and group IFI, for the Person objects of /agents. */
final class AgentNames {
    /** A name a statement gives the agent or group with this IFI key. */
    record Named(String ifiKey, String name) {
    }

    private AgentNames() {
    }

    /** Every (IFI, name) pair a statement holds, in statement order. */
    static List<Named> of(Statement s) {
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
