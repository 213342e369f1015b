package dev.cairn.xapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Every key the query side matches a statement on (Comm 2.1.3). A key is <em>narrow</em> when the plain
 * {@code agent}/{@code activity} filter matches it (actor and object, group members included), otherwise
 * <em>broad</em>, matched only with {@code related_agents}/{@code related_activities}. Verb and registration
 * keys are always narrow. {@code refTarget} is the statement a StatementRef object points at, whose keys this
 * statement inherits.
 */
public record FilterKeys(Map<FilterKey, Boolean> keys, UUID refTarget) {

    public static FilterKeys of(Statement s) {
        Map<FilterKey, Boolean> keys = new LinkedHashMap<>();
        put(keys, FilterKey.verb(s.verb().id()), true);
        if (s.context() != null && s.context().registration() != null) {
            put(keys, FilterKey.registration(s.context().registration().toString()), true);
        }
        actor(keys, s.actor(), true);
        object(keys, s.object(), true);
        context(keys, s.context());
        if (s.authority() != null) {
            actor(keys, s.authority(), false);
            put(keys, FilterKey.authority(s.authority()), true);
        }
        UUID ref = s.object() instanceof StatementRef r ? r.id() : null;
        return new FilterKeys(keys, ref);
    }

    private static void object(Map<FilterKey, Boolean> keys, StatementObject o, boolean narrow) {
        if (o instanceof Activity a) {
            put(keys, FilterKey.activity(a.id()), narrow);
        } else if (o instanceof Actor actor) {
            actor(keys, actor, narrow);
        } else if (o instanceof SubStatement sub) {
            put(keys, FilterKey.verb(sub.verb().id()), false);
            actor(keys, sub.actor(), false);
            object(keys, sub.object(), false);
            context(keys, sub.context());
        }
    }

    private static void context(Map<FilterKey, Boolean> keys, Context c) {
        if (c == null) {
            return;
        }
        if (c.instructor() != null) {
            actor(keys, c.instructor(), false);
        }
        if (c.team() != null) {
            actor(keys, c.team(), false);
        }
        if (c.contextAgents() != null) {
            for (ContextAgent ca : c.contextAgents()) {
                actor(keys, ca.agent(), false);
            }
        }
        if (c.contextGroups() != null) {
            for (ContextGroup cg : c.contextGroups()) {
                actor(keys, cg.group(), false);
            }
        }
        ContextActivities ca = c.contextActivities();
        if (ca != null) {
            activities(keys, ca.parent());
            activities(keys, ca.grouping());
            activities(keys, ca.category());
            activities(keys, ca.other());
        }
    }

    private static void activities(Map<FilterKey, Boolean> keys, List<Activity> list) {
        if (list != null) {
            for (Activity a : list) {
                put(keys, FilterKey.activity(a.id()), false);
            }
        }
    }

    private static void actor(Map<FilterKey, Boolean> keys, Actor actor, boolean narrow) {
        if (actor.ifi() != null) {
            put(keys, FilterKey.agent(actor.ifi()), narrow);
        }
        if (actor instanceof Group g) {
            for (Agent member : g.members()) {
                put(keys, FilterKey.agent(member.ifi()), narrow);
            }
        }
    }

    /** Narrow wins: a key matched both narrowly and broadly is narrow. */
    private static void put(Map<FilterKey, Boolean> keys, FilterKey key, boolean narrow) {
        keys.merge(key, narrow, Boolean::logicalOr);
    }
}
