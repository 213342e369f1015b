package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two projections are equal when their tables say the same, whatever ids their filter keys got: a replay numbers keys
 * in the order it meets them, and an erasure leaves keys no statement uses.
 */
class ProjectionChecksumTest {
    @TempDir
    Path dir;

    private static ProjectedStatement statement(int i, String learner) {
        String json = "{\"id\":\"" + new UUID(7, i) + "\",\"actor\":{\"mbox\":\"mailto:" + learner + "@example.com\"},"
                + "\"verb\":{\"id\":\"http://example.com/verbs/v" + i % 2 + "\"},\"object\":{\"id\":"
                + "\"http://example.com/activities/a" + i % 3 + "\"}}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return new ProjectedStatement(new UUID(7, i), 1_000L + i, bytes,
                FilterKeys.of(StatementParser.parseOne(bytes, XapiVersion.V2_0_0).statement()), false);
    }

    /** Statements 0-9, the last by {@code lastLearner}, after filter keys no statement uses when {@code unused}. */
    private Map<String, String> projected(String dialect, int unused, String lastLearner) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            try (Connection c = db.newWriter(); Statement s = c.createStatement()) {
                for (int k = 1; k <= unused; k++) {
                    s.execute("INSERT INTO filter_key (id, kind, value) VALUES (" + k + ", 2, 'mailto:gone-" + k
                            + "@example.com')");
                }
            }
            try (ProjectionWriter writer = new ProjectionWriter(db)) {
                for (int i = 0; i < 10; i++) {
                    writer.add(statement(i, i == 9 ? lastLearner : "learner-" + i % 4));
                }
                writer.commit(0);
            }
            return ProjectionChecksum.of(db);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void keysUnderOtherIdsAndKeysNoStatementUsesChangeNothing(String dialect) throws Exception {
        assertEquals(projected(dialect, 0, "learner-1"), projected(dialect, 3, "learner-1"));
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aStatementThatMatchesAnotherKeyChangesTheKeysAndTheMatches(String dialect) throws Exception {
        Map<String, String> one = projected(dialect, 3, "learner-1");
        Map<String, String> other = projected(dialect, 3, "someone-else");
        for (String table : new String[] {"statement", "filter_key", "statement_match"}) {
            assertNotEquals(one.get(table), other.get(table), table);
        }
    }
}
