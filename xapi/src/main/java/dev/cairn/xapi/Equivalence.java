package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Statement comparison (Data 2.3.1): two statements are equivalent when they differ only in what the
 * immutability exceptions allow: the properties the LRS sets (authority, stored, version), the serialization
 * of timestamps, verb display, activity definitions, the order of group members and case where it does not
 * matter (the domain of an email address). xAPI 2.0 section 4.2.7 adds that result.duration compares without
 * the precision beyond 0.01 second, and that IRIs compare by simple string comparison or by the syntax-based
 * normalization of RFC 3987 5.3.2; the identifying IRIs (verb, activities, IFIs) compare normalized.
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
        return new Statement(s.id(), actor(s.actor()), verb(s.verb()), object(s.object()), result(s.result()),
                context(s.context()), withTimestamp ? instant(s.timestamp()) : null, null, null, null, s.attachments());
    }

    private static String instant(String timestamp) {
        return timestamp == null ? null : Timestamps.instant(timestamp).toString();
    }

    private static Result result(Result r) {
        if (r == null || r.duration() == null) {
            return r;
        }
        return new Result(r.score(), r.success(), r.completion(), r.response(),
                Durations.comparable(r.duration()), r.extensions());
    }

    private static Verb verb(Verb v) {
        return new Verb(Iris.normalize(v.id()), null);
    }

    private static Actor actor(Actor a) {
        if (a instanceof Group g) {
            List<Agent> members = new ArrayList<>(g.members().size());
            for (Agent m : g.members()) {
                members.add((Agent) actor(m));
            }
            members.sort(Comparator.comparing(Agent::toString));
            return new Group(g.name(), ifi(g.ifi()), members);
        }
        return new Agent(a.name(), ifi(a.ifi()));
    }

    private static Ifi ifi(Ifi ifi) {
        if (ifi == null || ifi.kind() == Ifi.Kind.MBOX_SHA1SUM) {
            return ifi;
        }
        return new Ifi(ifi.kind(), Iris.normalize(ifi.value()), ifi.accountName());
    }

    private static StatementObject object(StatementObject o) {
        if (o instanceof Activity activity) {
            return new Activity(Iris.normalize(activity.id()), null);
        }
        if (o instanceof Actor actor) {
            return actor(actor);
        }
        if (o instanceof SubStatement sub) {
            return new SubStatement(actor(sub.actor()), verb(sub.verb()), object(sub.object()), result(sub.result()),
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
                c.language(), c.statement(), c.extensions(), contextAgents(c.contextAgents()),
                contextGroups(c.contextGroups()));
    }

    private static List<ContextAgent> contextAgents(List<ContextAgent> list) {
        if (list == null) {
            return null;
        }
        List<ContextAgent> out = new ArrayList<>(list.size());
        for (ContextAgent ca : list) {
            out.add(new ContextAgent((Agent) actor(ca.agent()), ca.relevantTypes()));
        }
        return out;
    }

    private static List<ContextGroup> contextGroups(List<ContextGroup> list) {
        if (list == null) {
            return null;
        }
        List<ContextGroup> out = new ArrayList<>(list.size());
        for (ContextGroup cg : list) {
            out.add(new ContextGroup((Group) actor(cg.group()), cg.relevantTypes()));
        }
        return out;
    }

    private static List<Activity> ids(List<Activity> activities) {
        if (activities == null) {
            return null;
        }
        List<Activity> out = new ArrayList<>(activities.size());
        for (Activity a : activities) {
            out.add(new Activity(Iris.normalize(a.id()), null));
        }
        return out;
    }
}
