package dev.cairn.projector;

import dev.cairn.store.ProjectionWriter;
import dev.cairn.xapi.Actor;
import dev.cairn.xapi.Agent;
import dev.cairn.xapi.Context;
import dev.cairn.xapi.ContextAgent;
import dev.cairn.xapi.ContextGroup;
import dev.cairn.xapi.Group;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.SubStatement;

/** Remembers the names statements give each agent and group IFI, for the Person objects of /agents. */
final class AgentNames {
    private AgentNames() {
    }

    static void record(Statement s, ProjectionWriter writer) {
        actor(s.actor(), writer);
        if (s.object() instanceof Actor a) {
            actor(a, writer);
        } else if (s.object() instanceof SubStatement sub) {
            actor(sub.actor(), writer);
            if (sub.object() instanceof Actor a) {
                actor(a, writer);
            }
            context(sub.context(), writer);
        }
        context(s.context(), writer);
    }

    private static void context(Context c, ProjectionWriter writer) {
        if (c == null) {
            return;
        }
        if (c.instructor() != null) {
            actor(c.instructor(), writer);
        }
        if (c.team() != null) {
            actor(c.team(), writer);
        }
        if (c.contextAgents() != null) {
            for (ContextAgent ca : c.contextAgents()) {
                actor(ca.agent(), writer);
            }
        }
        if (c.contextGroups() != null) {
            for (ContextGroup cg : c.contextGroups()) {
                actor(cg.group(), writer);
            }
        }
    }

    private static void actor(Actor a, ProjectionWriter writer) {
        if (a.ifi() != null && a.name() != null) {
            writer.addAgentName(a.ifi().key(), a.name());
        }
        if (a instanceof Group g) {
            for (Agent member : g.members()) {
                actor(member, writer);
            }
        }
    }
}
