package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.xapi.StatementParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The definitions statements give an activity merge key by key into the stored one; a statement's attachments are
 * read back as the contents its own request carried.
 */
class ResourceWriterTest {
    private static final String ACTIVITY = "http://example.com/activities/a";

    @TempDir
    Path dir;

    private static void define(ProjectionWriter writer, String definitionJson) {
        writer.defineActivity(ACTIVITY,
                StatementParser.parseActivityDefinition(definitionJson.getBytes(StandardCharsets.UTF_8)));
    }

    private static String stored(Database db) {
        return new DocumentReader(db).activityDefinition(ACTIVITY)
                .map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null);
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void languageMapsMergeKeyByKeyAndARepeatChangesNothing(String dialect) {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             ProjectionWriter writer = new ProjectionWriter(db)) {
            define(writer, "{\"name\":{\"en-US\":\"Quiz\"}}");
            define(writer, "{\"name\":{\"de-DE\":\"Test\"}}");
            define(writer, "{\"name\":{\"en-US\":\"Quiz\"}}");
            writer.commit(0);
            assertEquals("{\"name\":{\"en-US\":\"Quiz\",\"de-DE\":\"Test\"}}", stored(db));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void everyPropertyIsStoredAsGivenExtensionValuesIncluded(String dialect) {
        String definition = "{\"name\":{\"en-US\":\"Q\"},\"description\":{\"en-US\":\"D\"},"
                + "\"type\":\"http://example.com/t\",\"moreInfo\":\"http://example.com/m\","
                + "\"interactionType\":\"choice\",\"correctResponsesPattern\":[\"a\"],"
                + "\"choices\":[{\"id\":\"a\",\"description\":{\"en-US\":\"A\"}}],"
                + "\"extensions\":{\"http://example.com/x\":{\"n\":1.50,\"big\":12345678901234567890,"
                + "\"list\":[true,null,\"s\"]}}}";
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             ProjectionWriter writer = new ProjectionWriter(db)) {
            define(writer, definition);
            writer.commit(0);
            assertEquals(definition.replace("1.50", "1.5"), stored(db));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aRolledBackDefinitionIsNotMergedIntoTheNextOne(String dialect) {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             ProjectionWriter writer = new ProjectionWriter(db)) {
            define(writer, "{\"name\":{\"en-US\":\"Quiz\"}}");
            writer.commit(0);
            define(writer, "{\"name\":{\"de-DE\":\"Test\"}}");
            writer.rollback();
            define(writer, "{\"name\":{\"fr-FR\":\"Examen\"}}");
            writer.commit(1);
            assertEquals("{\"name\":{\"en-US\":\"Quiz\",\"fr-FR\":\"Examen\"}}", stored(db));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aStatementCarriesTheContentsItsRequestSentAndARepeatChangesNothing(String dialect) {
        java.util.UUID carrier = java.util.UUID.randomUUID();
        java.util.UUID namer = java.util.UUID.randomUUID();
        String sha2 = "c".repeat(64);
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             ProjectionWriter writer = new ProjectionWriter(db)) {
            writer.putAttachment(sha2, "text/plain", new byte[] {1, 2});
            writer.carriedAttachment(carrier, sha2);
            writer.carriedAttachment(carrier, sha2);
            writer.commit(0);
            StatementReader reader = new StatementReader(db);
            assertEquals(java.util.Map.of(carrier.toString(), java.util.Set.of(sha2)),
                    reader.carriedAttachments(java.util.List.of(carrier.toString(), namer.toString())));
            assertEquals(java.util.Map.of(), reader.carriedAttachments(java.util.List.of()));
        }
    }
}
