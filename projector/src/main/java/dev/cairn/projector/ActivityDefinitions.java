package dev.cairn.projector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.store.ProjectionWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the canonical definition of every activity (for /activities and format=canonical): each statement that
 * defines an activity merges its definition into the stored one. Language maps and extensions merge key by key,
 * every other property takes the newest value. Finding a statement's definitions ({@link #of}) needs no database
 * and runs ahead of the writer; merging them ({@link #merge}) reads and writes the stored ones.
 */
final class ActivityDefinitions {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] DEFINITION = "\"definition\"".getBytes(StandardCharsets.US_ASCII);

    /** The definition one statement gives an activity. */
    record Defined(String activityId, ObjectNode definition) {
    }

    private ActivityDefinitions() {
    }

    /** The activity definitions a stored statement carries, in statement order. */
    static List<Defined> of(byte[] statementJson) {
        if (!contains(statementJson, DEFINITION)) {
            return List.of(); // most statements define nothing: skip the tree parse
        }
        try {
            List<Defined> out = new ArrayList<>(2);
            statementActivities(JSON.readTree(statementJson), out);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read activity definitions of a stored statement", e);
        }
    }

    private static void statementActivities(JsonNode statement, List<Defined> out) {
        JsonNode object = statement.path("object");
        String type = object.path("objectType").asText("Activity");
        if (type.equals("Activity")) {
            activity(object, out);
        } else if (type.equals("SubStatement")) {
            statementActivities(object, out);
        }
        JsonNode contextActivities = statement.path("context").path("contextActivities");
        for (JsonNode list : contextActivities) {
            if (list.isArray()) {
                for (JsonNode a : list) {
                    activity(a, out);
                }
            } else {
                activity(list, out);
            }
        }
    }

    private static void activity(JsonNode activity, List<Defined> out) {
        if (activity.get("definition") instanceof ObjectNode definition) {
            out.add(new Defined(activity.path("id").asText(), definition));
        }
    }

    /**
     * Merges definitions into the stored ones. Most statements repeat the definition their activity was given last:
     * merging it again changes nothing, so that is skipped without reading, parsing or writing the stored one.
     * What was given last is forgotten with the transaction it was merged in ({@link #forget}).
     */
    static final class Merger {
        private static final int REMEMBERED = 10_000;
        private final Map<String, ObjectNode> lastGiven = new LinkedHashMap<>(REMEMBERED, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ObjectNode> eldest) {
                return size() > REMEMBERED;
            }
        };

        /** Merges each definition into the activity's stored one, in order. */
        void merge(List<Defined> defined, ProjectionWriter writer) {
            try {
                for (Defined d : defined) {
                    if (!d.definition().equals(lastGiven.get(d.activityId()))) {
                        ActivityDefinitions.merge(d, writer);
                        lastGiven.put(d.activityId(), d.definition());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot merge a stored activity definition", e);
            }
        }

        /** Forgets every definition merged so far: the transaction they were merged in was rolled back or dropped. */
        void forget() {
            lastGiven.clear();
        }
    }

    private static void merge(Defined d, ProjectionWriter writer) throws IOException {
        byte[] existing = writer.activityDefinition(d.activityId());
        ObjectNode merged = existing == null ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(existing);
        Iterator<Map.Entry<String, JsonNode>> fields = d.definition().fields();
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

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
