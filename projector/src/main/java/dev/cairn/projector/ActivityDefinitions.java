package dev.cairn.projector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.store.ProjectionWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * Keeps the canonical definition of every activity (for /activities and format=canonical): each statement that
 * defines an activity merges its definition into the stored one. Language maps and extensions merge key by key,
 * every other property takes the newest value.
 */
final class ActivityDefinitions {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] DEFINITION = "\"definition\"".getBytes(StandardCharsets.US_ASCII);

    private ActivityDefinitions() {
    }

    static void merge(byte[] statementJson, ProjectionWriter writer) {
        if (!contains(statementJson, DEFINITION)) {
            return; // most statements define nothing: skip the tree parse
        }
        try {
            JsonNode statement = JSON.readTree(statementJson);
            statementActivities(statement, writer);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read activity definitions of a stored statement", e);
        }
    }

    private static void statementActivities(JsonNode statement, ProjectionWriter writer) throws IOException {
        JsonNode object = statement.path("object");
        String type = object.path("objectType").asText("Activity");
        if (type.equals("Activity")) {
            activity(object, writer);
        } else if (type.equals("SubStatement")) {
            statementActivities(object, writer);
        }
        JsonNode contextActivities = statement.path("context").path("contextActivities");
        for (JsonNode list : contextActivities) {
            if (list.isArray()) {
                for (JsonNode a : list) {
                    activity(a, writer);
                }
            } else {
                activity(list, writer);
            }
        }
    }

    private static void activity(JsonNode activity, ProjectionWriter writer) throws IOException {
        JsonNode definition = activity.get("definition");
        if (definition == null || !definition.isObject()) {
            return;
        }
        String id = activity.path("id").asText();
        byte[] existing = writer.activityDefinition(id);
        ObjectNode merged = existing == null ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(existing);
        Iterator<Map.Entry<String, JsonNode>> fields = definition.fields();
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
        if (existing == null || !java.util.Arrays.equals(existing, updated)) {
            writer.putActivityDefinition(id, updated);
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
