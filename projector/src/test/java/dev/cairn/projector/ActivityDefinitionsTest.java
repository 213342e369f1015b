package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Definitions merge key by key into the stored one; a repeated definition is merged again after a rollback. */
class ActivityDefinitionsTest extends DatabaseOnEachDialect {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACTIVITY = "http://example.com/activities/a";

    private static ActivityDefinitions.Defined defined(String definitionJson) throws Exception {
        return new ActivityDefinitions.Defined(ACTIVITY, (ObjectNode) JSON.readTree(definitionJson));
    }

    private static String stored(ProjectionWriter writer) {
        byte[] b = writer.activityDefinition(ACTIVITY);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void languageMapsMergeKeyByKeyAndARepeatChangesNothing() throws Exception {
        try (Database db = Database.open(database.url()); ProjectionWriter writer = new ProjectionWriter(db)) {
            ActivityDefinitions.Merger merger = new ActivityDefinitions.Merger();
            merger.merge(List.of(defined("{\"name\":{\"en-US\":\"Quiz\"}}")), writer);
            merger.merge(List.of(defined("{\"name\":{\"de-DE\":\"Test\"}}")), writer);
            merger.merge(List.of(defined("{\"name\":{\"en-US\":\"Quiz\"}}")), writer);
            writer.commit(0);
            assertEquals("{\"name\":{\"en-US\":\"Quiz\",\"de-DE\":\"Test\"}}", stored(writer));
        }
    }

    @Test
    void aDefinitionMergedInARolledBackTransactionIsMergedAgain() throws Exception {
        try (Database db = Database.open(database.url()); ProjectionWriter writer = new ProjectionWriter(db)) {
            ActivityDefinitions.Merger merger = new ActivityDefinitions.Merger();
            ActivityDefinitions.Defined quiz = defined("{\"name\":{\"en-US\":\"Quiz\"}}");
            merger.merge(List.of(quiz), writer);
            writer.rollback();
            merger.forget();
            merger.merge(List.of(quiz), writer);
            writer.commit(0);
            assertEquals("{\"name\":{\"en-US\":\"Quiz\"}}", stored(writer));
        }
    }
}
