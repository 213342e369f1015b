package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.FilterKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What a statement changes in the statements it meets through StatementRefs, when it arrives after them. */
class StatementRefGraphTest {
    private static final UUID REFERRER = new UUID(1, 1);
    private static final UUID TARGET = new UUID(2, 2);
    private static final FilterKey REFERRER_VERB = FilterKey.verb("http://example.com/verbs/refers");
    private static final FilterKey TARGET_VERB = FilterKey.verb("http://example.com/verbs/target");
    private static final FilterKey VOIDED = FilterKey.verb("http://adlnet.gov/expapi/verbs/voided");
    private static final FilterKey AUTHORITY_A = new FilterKey(FilterKey.Kind.AUTHORITY, "mbox:mailto:a@example.com");
    private static final FilterKey AUTHORITY_B = new FilterKey(FilterKey.Kind.AUTHORITY, "mbox:mailto:b@example.com");

    @TempDir
    Path dir;

    /** A stored statement's voided flag and keys. */
    private record Stored(boolean voided, MatchKeys keys) {
    }

    private static ProjectedStatement statement(UUID id, FilterKey verb, FilterKey authority, UUID refTarget,
            boolean voiding) {
        Map<FilterKey, Boolean> keys = new LinkedHashMap<>();
        keys.put(verb, true);
        keys.put(authority, true);
        return new ProjectedStatement(id, 1_000, ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8),
                new FilterKeys(keys, refTarget), voiding);
    }

    private interface Graph {
        void run(StatementRefGraph graph, FilterKeyIds ids, Connection c) throws SQLException;
    }

    private void onWriter(String dialect, Graph test) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             Connection c = db.newWriter(); WriterBackend backend = db.dialect().writerBackend(db, c)) {
            c.setAutoCommit(false);
            FilterKeyIds ids = new FilterKeyIds(db, 100);
            ids.prepare(c);
            StatementRefGraph graph = new StatementRefGraph(db, ids);
            graph.prepare(c, backend);
            ids.open();
            graph.startAt(Watermark.EMPTY);
            test.run(graph, ids, c);
        }
    }

    private static void flush(StatementRefGraph graph, FilterKeyIds ids) throws SQLException {
        ids.flush();
        graph.flush();
    }

    private static Stored stored(Connection c, UUID id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT voided, keys FROM statement WHERE id = ?")) {
            ps.setString(1, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), id + " is stored");
                return new Stored(rs.getInt(1) == 1, MatchKeys.fromBytes(rs.getBytes(2)));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aReferrerStoredBeforeItsTargetGainsTheTargetsKeysButNotItsAuthority(String dialect) throws SQLException {
        onWriter(dialect, (graph, ids, c) -> {
            graph.add(statement(REFERRER, REFERRER_VERB, AUTHORITY_A, TARGET, false));
            graph.add(statement(TARGET, TARGET_VERB, AUTHORITY_B, null, false));
            flush(graph, ids);
            MatchKeys keys = stored(c, REFERRER).keys();
            assertTrue(keys.contains(MatchKeys.entry(ids.id(TARGET_VERB), MatchKeys.SCOPE_ALL)));
            assertFalse(keys.contains(MatchKeys.entry(ids.id(AUTHORITY_B), MatchKeys.SCOPE_ALL)));
            assertEquals(2, graph.seq());
        });
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aStatementStoredAfterItsVoidingStatementOfTheSameAuthorityIsVoided(String dialect) throws SQLException {
        onWriter(dialect, (graph, ids, c) -> {
            graph.add(statement(REFERRER, VOIDED, AUTHORITY_A, TARGET, true));
            graph.add(statement(TARGET, TARGET_VERB, AUTHORITY_A, null, false));
            flush(graph, ids);
            assertTrue(stored(c, TARGET).voided());
        });
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aStatementStoredAfterAnotherAuthoritysVoidingStatementIsNotVoided(String dialect) throws SQLException {
        onWriter(dialect, (graph, ids, c) -> {
            graph.add(statement(REFERRER, VOIDED, AUTHORITY_B, TARGET, true));
            graph.add(statement(TARGET, TARGET_VERB, AUTHORITY_A, null, false));
            flush(graph, ids);
            assertFalse(stored(c, TARGET).voided());
        });
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aVoidingStatementStoredAfterItsTargetVoidsIt(String dialect) throws SQLException {
        onWriter(dialect, (graph, ids, c) -> {
            graph.add(statement(TARGET, TARGET_VERB, AUTHORITY_A, null, false));
            graph.add(statement(REFERRER, VOIDED, AUTHORITY_A, TARGET, true));
            flush(graph, ids);
            assertTrue(stored(c, TARGET).voided());
        });
    }

    /**
     * A statement voided in a later commit than its own leaves the match index wherever its rows are: on SQLite a
     * small commit's rows wait in statement_match_recent, on PostgreSQL they are in statement_match.
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aStatementVoidedInALaterCommitLeavesTheMatchIndex(String dialect) throws SQLException {
        onWriter(dialect, (graph, ids, c) -> {
            graph.add(statement(TARGET, TARGET_VERB, AUTHORITY_A, null, false));
            flush(graph, ids);
            c.commit();
            long targetSeq = graph.seq();
            assertTrue(matched(c, dialect, targetSeq), "the target's rows are written");
            graph.add(statement(REFERRER, VOIDED, AUTHORITY_A, TARGET, true));
            flush(graph, ids);
            c.commit();
            assertFalse(matched(c, dialect, targetSeq), "no row holds the voided statement's bit");
        });
    }

    /** Whether a match row of either table holds {@code seq}. */
    private static boolean matched(Connection c, String dialect, long seq) throws SQLException {
        String rows = "SELECT bits FROM statement_match WHERE block = ?" + (dialect.equals("sqlite")
                ? " UNION ALL SELECT bits FROM statement_match_recent WHERE block = ?" : "");
        try (PreparedStatement ps = c.prepareStatement(rows)) {
            for (int i = 1; i <= ps.getParameterMetaData().getParameterCount(); i++) {
                ps.setLong(i, MatchKeys.block(seq));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if ((rs.getLong(1) & MatchKeys.bit(seq)) != 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
