package dev.cairn.projector;

import dev.cairn.xapi.AgentNames;
import dev.cairn.store.LruMap;
import dev.cairn.xapi.ActivityDefinition;
import dev.cairn.xapi.ActivityDefinitions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the log has already said, as far as the reader has read it without a break: the last definition it gave
 * each activity and the names it gave agents. Most statements repeat them, and a repeat needs no write: the
 * earlier entry is applied before it (entries are applied in log order), and merging the same definition again, or
 * adding a name already added, changes nothing. The judgement depends only on the log, not on what was committed,
 * so the reader makes it ahead of the writer; it must {@link #forget} whenever reading starts over elsewhere.
 * Bounded: a forgotten activity or name is written again, which is harmless.
 */
final class Repeats {
    private static final int ACTIVITIES = 10_000;
    private static final int NAMES = 50_000;

    private final Map<String, ActivityDefinition> lastDefinitions = new LruMap<>(ACTIVITIES);
    private final Set<AgentNames.Named> names = Collections.newSetFromMap(new LruMap<>(NAMES));

    /** The definitions that differ from the one the log last gave their activity; remembers each. */
    List<ActivityDefinitions.Defined> newDefinitions(List<ActivityDefinitions.Defined> defined) {
        List<ActivityDefinitions.Defined> out = new ArrayList<>(defined.size());
        for (ActivityDefinitions.Defined d : defined) {
            if (!d.definition().equals(lastDefinitions.put(d.activityId(), d.definition()))) {
                out.add(d);
            }
        }
        return out;
    }

    /** The names the log has not given their agents before; remembers each. */
    List<AgentNames.Named> newNames(List<AgentNames.Named> named) {
        List<AgentNames.Named> out = new ArrayList<>(named.size());
        for (AgentNames.Named n : named) {
            if (names.add(n)) {
                out.add(n);
            }
        }
        return out;
    }

    /** Forgets everything: the next entry read does not follow the last one read. */
    void forget() {
        lastDefinitions.clear();
        names.clear();
    }
}
