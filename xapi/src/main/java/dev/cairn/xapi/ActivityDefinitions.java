package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the activity definitions a statement gives, for the canonical definition of every activity (for /activities
 * and format=canonical). Finding them needs no database: the projector finds them ahead of its writer, which merges
 * them into the stored ones, and an erasure keeps those of a statement it removes ({@link StatementResidue}).
 */
public final class ActivityDefinitions {
    /** The definition one statement gives an activity. */
    public record Defined(String activityId, ActivityDefinition definition) {
    }

    private ActivityDefinitions() {
    }

    /** The activity definitions a statement carries: its object's (or its SubStatement's), then its context's. */
    public static List<Defined> of(Statement s) {
        List<Defined> out = new ArrayList<>(2);
        statementActivities(s.object(), s.context(), out);
        return out;
    }

    private static void statementActivities(StatementObject object, Context context, List<Defined> out) {
        if (object instanceof Activity a) {
            activity(a, out);
        } else if (object instanceof SubStatement sub) {
            statementActivities(sub.object(), sub.context(), out);
        }
        ContextActivities c = context == null ? null : context.contextActivities();
        if (c != null) {
            for (List<Activity> list : Arrays.asList(c.parent(), c.grouping(), c.category(), c.other())) {
                if (list != null) {
                    list.forEach(a -> activity(a, out));
                }
            }
        }
    }

    private static void activity(Activity a, List<Defined> out) {
        if (a.definition() != null) {
            out.add(new Defined(a.id(), a.definition()));
        }
    }
}
