package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The writer remembers the ids of a bounded number of filter keys; a key it has forgotten is found again in
 * filter_key, so the tables are the same as with a cache that forgets nothing.
 */
class FilterKeyCacheTest {
    @TempDir
    Path dir;

    private static ProjectedStatement statement(int i) {
        // Registrations repeat across the two transactions, long after a cache of two keys has let them go; the
        // learners of the second are new.
        String json = "{\"id\":\"" + new UUID(7, i) + "\",\"actor\":{\"mbox\":\"mailto:"
                + (i < 10 ? "learner-" : "newcomer-") + i % 3
                + "@example.com\"},\"verb\":{\"id\":\"http://example.com/verbs/v" + i % 2 + "\"},\"object\":{\"id\":"
                + "\"http://example.com/activities/a" + i % 4 + "\"},\"context\":{\"registration\":\""
                + new UUID(9, i % 5) + "\"}}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        ParsedStatement parsed = StatementParser.parseOne(bytes, XapiVersion.V2_0_0);
        return new ProjectedStatement(new UUID(7, i), 1_000L + i, bytes, FilterKeys.of(parsed.statement()),
                false);
    }

    private Map<String, String> projected(String dialect, int keyCacheSize) {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            try (ProjectionWriter writer = new ProjectionWriter(db, keyCacheSize)) {
                for (int i = 0; i < 20; i++) {
                    writer.add(statement(i));
                    if (i == 9) {
                        writer.commit(0);
                    }
                }
                writer.commit(1);
            }
            return ProjectionChecksum.of(db);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void forgottenKeysAreFoundAgain(String dialect) {
        assertEquals(projected(dialect, 1_000), projected(dialect, 2));
    }

    /**
     * Statements 0-19 in two transactions by two writers, the second one after a rolled back transaction that added
     * keys of its own.
     */
    private Map<String, String> projectedByTwoWriters(String dialect) {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            try (ProjectionWriter writer = new ProjectionWriter(db, 1_000)) {
                for (int i = 0; i < 10; i++) {
                    writer.add(statement(i));
                }
                writer.commit(0);
            }
            try (ProjectionWriter writer = new ProjectionWriter(db, 1_000)) { // finds the stored keys at start
                for (int i = 10; i < 20; i++) {
                    writer.add(statement(i)); // adds the newcomers' keys, then forgets them
                }
                writer.rollback();
                for (int i = 10; i < 20; i++) {
                    writer.add(statement(i));
                }
                writer.commit(1);
            }
            return ProjectionChecksum.of(db);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aNewWriterKnowsTheStoredKeysAndARollbackForgetsTheKeysItAdded(String dialect) {
        assertEquals(projected(dialect, 1_000), projectedByTwoWriters(dialect));
    }
}
