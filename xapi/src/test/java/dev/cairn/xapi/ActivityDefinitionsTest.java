package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A statement's definitions are those of its object, SubStatement and context activities. */
class ActivityDefinitionsTest {
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
}
