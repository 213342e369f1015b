package dev.cairn.projector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.xapi.Activity;
import dev.cairn.xapi.ActivityDefinition;
import dev.cairn.xapi.Context;
import dev.cairn.xapi.ContextActivities;
import dev.cairn.xapi.DefinitionWriter;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementObject;
import dev.cairn.xapi.SubStatement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Keeps the canonical definition of every activity (for /activities and format=canonical): each statement that
 * defines an activity merges its definition into the stored one. Language maps and extensions merge key by key,
 * every other property takes the newest value. Finding a statement's definitions ({@link #of}, from the parsed
 * statement) needs no database and runs ahead of the writer, which then merges those that are not repeats
 * ({@link Repeats}) into the stored ones ({@link #merge}).
 */
final class ActivityDefinitions {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The definition one statement gives an activity. */
    record Defined(String activityId, ActivityDefinition definition) {
    }

    private ActivityDefinitions() {
    }

    /** The activity definitions a statement carries: its object's (or its SubStatement's), then its context's. */
    static List<Defined> of(Statement s) {
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

    /** Merges each definition into the activity's stored one, in order. */
    static void merge(List<Defined> defined, ProjectionWriter writer) {
        try {
            for (Defined d : defined) {
                merge(d, writer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot merge a stored activity definition", e);
        }
    }

    private static void merge(Defined d, ProjectionWriter writer) throws IOException {
        byte[] existing = writer.activityDefinition(d.activityId());
        ObjectNode merged = existing == null ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(existing);
        ObjectNode given = (ObjectNode) JSON.readTree(DefinitionWriter.write(d.definition()));
        Iterator<Map.Entry<String, JsonNode>> fields = given.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            JsonNode old = merged.get(f.getKey());
            boolean keyByKey = f.getKey().equals("name") || f.getKey().equals("description")
                    || f.getKey().equals("extensions");
            if (keyByKey && old instanceof ObjectNode oldMap && f.getValue().isObject()) {
                oldMap.setAll((ObjectNode) f.getValue());
            } else {
                merged.set(f.getKey(), f.getValue());
            }
        }
        byte[] updated = JSON.writeValueAsBytes(merged);
        if (existing == null || !Arrays.equals(existing, updated)) {
            writer.putActivityDefinition(d.activityId(), updated);
        }
    }
}
