package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A statement's definitions are those of its object, SubStatement and context activities; they merge key by key
 * into the stored one.
 */
class ActivityDefinitionsTest extends DatabaseOnEachDialect {
    private static final String ACTIVITY = "http://example.com/activities/a";

    private static ActivityDefinitions.Defined defined(String definitionJson) throws Exception {
        return new ActivityDefinitions.Defined(ACTIVITY,
                StatementParser.parseActivityDefinition(definitionJson.getBytes(StandardCharsets.UTF_8)));
    }

    private static String stored(ProjectionWriter writer) {
        byte[] b = writer.activityDefinition(ACTIVITY);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void languageMapsMergeKeyByKeyAndARepeatChangesNothing() throws Exception {
        try (Database db = Database.open(database.url()); ProjectionWriter writer = new ProjectionWriter(db)) {
            ActivityDefinitions.merge(List.of(defined("{\"name\":{\"en-US\":\"Quiz\"}}"),
                    defined("{\"name\":{\"de-DE\":\"Test\"}}"), defined("{\"name\":{\"en-US\":\"Quiz\"}}")), writer);
            writer.commit(0);
            assertEquals("{\"name\":{\"en-US\":\"Quiz\",\"de-DE\":\"Test\"}}", stored(writer));
        }
    }

    @Test
    void aStatementDefinesItsObjectItsSubStatementsActivitiesAndItsContextActivities() {
        String statement = """
                {"actor":{"mbox":"mailto:a@example.com"},"verb":{"id":"http://example.com/v"},
                 "object":{"objectType":"SubStatement","actor":{"mbox":"mailto:b@example.com"},
                   "verb":{"id":"http://example.com/v"},
                   "object":{"id":"http://example.com/sub-object","definition":{"type":"http://example.com/t1"}},
                   "context":{"contextActivities":{"other":{"id":"http://example.com/sub-other",
                     "definition":{"type":"http://example.com/t2"}}}}},
                 "context":{"contextActivities":{
                   "parent":[{"id":"http://example.com/parent","definition":{"type":"http://example.com/t3"}}],
                   "grouping":[{"id":"http://example.com/undefined"}],
                   "category":[{"id":"http://example.com/category","definition":{"type":"http://example.com/t4"}}]}}}
                """;
        List<ActivityDefinitions.Defined> defined = ActivityDefinitions.of(StatementParser.parseOne(
                statement.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0).statement());
        assertEquals(List.of("http://example.com/sub-object", "http://example.com/sub-other",
                "http://example.com/parent", "http://example.com/category"),
                defined.stream().map(ActivityDefinitions.Defined::activityId).toList());
        assertEquals("http://example.com/t3", defined.get(2).definition().type());
    }

    @Test
    void everyPropertyIsStoredAsGivenExtensionValuesIncluded() throws Exception {
        String definition = "{\"name\":{\"en-US\":\"Q\"},\"description\":{\"en-US\":\"D\"},"
                + "\"type\":\"http://example.com/t\",\"moreInfo\":\"http://example.com/m\","
                + "\"interactionType\":\"choice\",\"correctResponsesPattern\":[\"a\"],"
                + "\"choices\":[{\"id\":\"a\",\"description\":{\"en-US\":\"A\"}}],"
                + "\"extensions\":{\"http://example.com/x\":{\"n\":1.50,\"big\":12345678901234567890,"
                + "\"list\":[true,null,\"s\"]}}}";
        try (Database db = Database.open(database.url()); ProjectionWriter writer = new ProjectionWriter(db)) {
            ActivityDefinitions.merge(List.of(defined(definition)), writer);
            writer.commit(0);
            assertEquals(definition.replace("1.50", "1.5"), stored(writer));
        }
    }
}
