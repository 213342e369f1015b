package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Statement comparison (Data 2.3.1): two statements are equivalent when they differ only in what the
 * immutability exceptions allow: the properties the LRS sets (authority, stored, version), the serialization
 * of timestamps, verb display, activity definitions and the order of group members.
 */
public final class Equivalence {
    private Equivalence() {
    }

    public static boolean equivalent(Statement a, Statement b) {
        // The LRS may assign timestamp (it copies stored when a client sends none), so it only counts when both have one.
        boolean compareTimestamps = a.timestamp() != null && b.timestamp() != null;
        return normalize(a, compareTimestamps).equals(normalize(b, compareTimestamps));
    }

    private static Statement normalize(Statement s, boolean withTimestamp) {
        return new Statement(s.id(), actor(s.actor()), verb(s.verb()), object(s.object()), s.result(),
                context(s.context()), withTimestamp ? instant(s.timestamp()) : null, null, null, null, s.attachments());
    }

    private static String instant(String timestamp) {
        return timestamp == null ? null : Values.instant(timestamp).toString();
    }

    private static Verb verb(Verb v) {
        return new Verb(v.id(), null);
    }

    private static Actor actor(Actor a) {
        if (a instanceof Group g) {
            List<Agent> members = new ArrayList<>(g.members());
            members.sort(Comparator.comparing(Agent::toString));
            return new Group(g.name(), g.ifi(), members);
        }
        return a;
    }

    private static StatementObject object(StatementObject o) {
        if (o instanceof Activity activity) {
            return new Activity(activity.id(), null);
        }
        if (o instanceof Actor actor) {
            return actor(actor);
        }
        if (o instanceof SubStatement sub) {
            return new SubStatement(actor(sub.actor()), verb(sub.verb()), object(sub.object()), sub.result(),
                    context(sub.context()), instant(sub.timestamp()), sub.attachments());
        }
        return o;
    }

    private static Context context(Context c) {
        if (c == null) {
            return null;
        }
        ContextActivities ca = c.contextActivities();
        ContextActivities normalized = ca == null ? null : new ContextActivities(ids(ca.parent()),
                ids(ca.grouping()), ids(ca.category()), ids(ca.other()));
        return new Context(c.registration(), c.instructor() == null ? null : actor(c.instructor()),
                c.team() == null ? null : (Group) actor(c.team()), normalized, c.revision(), c.platform(),
                c.language(), c.statement(), c.extensions(), c.contextAgents(), c.contextGroups());
    }

    private static List<Activity> ids(List<Activity> activities) {
        if (activities == null) {
            return null;
        }
        List<Activity> out = new ArrayList<>(activities.size());
        for (Activity a : activities) {
            out.add(new Activity(a.id(), null));
        }
        return out;
    }
}
