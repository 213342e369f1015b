package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A page of a filtered query reads an ordered range of match rows that stops at its limit, and one statement row per
 * row it returns: on SQLite before and after ANALYZE, on PostgreSQL once the tables have statistics (autovacuum gathers
 * them by itself), where with both ends of the range in the SQL it once read a whole key's rows and sorted them.
 */
class PagePlanTest {
    /** A PostgreSQL plan line that reads the statement table, with the rows and loops it actually ran. */
    private static final Pattern STATEMENT_SCAN =
            Pattern.compile(" on statement .*actual time=\\S+ rows=(\\d+) loops=(\\d+)");
    /** The same for the match table. */
    private static final Pattern MATCH_SCAN =
            Pattern.compile(" on statement_match .*actual time=\\S+ rows=(\\d+) loops=(\\d+)");
    private static final String COMMON = "http://example.com/verbs/common";
    private static final int STATEMENTS = 4_000;
    private static final int PAGE = 101;

    @TempDir
    Path dir;

    /** Projects statements 1 to {@code count} ({@link #statement}) into {@code db}. */
    static void project(Database db, int count) {
        try (ProjectionWriter writer = new ProjectionWriter(db)) {
            for (int i = 1; i <= count; i++) {
                writer.add(statement(i));
            }
            writer.commit(0);
        }
    }

    /** The statement at sequence number {@code i}, stored at {@code i} ms, of the common verb every 8th. */
    static ProjectedStatement statement(int i) {
        String verb = i % 8 == 0 ? COMMON : "http://example.com/verbs/other";
        UUID id = new UUID(3, i);
        byte[] json = ("{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"" + verb
                + "\"},\"object\":{\"id\":\"http://example.com/a\"},\"result\":{\"response\":\"" + "x".repeat(600)
                + "\"}}").getBytes(StandardCharsets.UTF_8);
        return new ProjectedStatement(id, i, json,
                FilterKeys.of(StatementParser.parseOne(json, XapiVersion.V2_0_0).statement()), false);
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aPageOfACommonVerbStopsItsMatchRangeAtItsLimitAndReadsOneStatementRowPerRow(String dialect) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            project(db, STATEMENTS);
            String blocks = db.sql("match_blocks").replace("{dir}", "DESC").replace("{from}", "<=");
            long[] seqs = new long[PAGE];
            for (int i = 0; i < PAGE; i++) {
                seqs[i] = STATEMENTS - 8L * i; // the newest statements of the common verb
            }
            String bySeq = db.sqlIn("statements_by_seq", PAGE).replace("{dir}", "DESC")
                    .replace("{max_bytes}", Long.toString(Long.MAX_VALUE));
            try (Connection c = DriverManager.getConnection(t.url()); Statement s = c.createStatement()) {
                long entry = MatchKeys.entry(verbKey(c), MatchKeys.SCOPE_ALL);
                long[] blockParams = {entry, Long.MAX_VALUE, MatchScan.FIRST_CHUNK};
                // PostgreSQL without statistics may read a table this small whole (it guesses a few rows); autovacuum
                // gathers statistics within a minute of the first writes.
                boolean[] runs = db.dialect() == Dialect.POSTGRESQL ? new boolean[] {true}
                        : new boolean[] {false, true};
                for (boolean analyzed : runs) {
                    if (analyzed) {
                        s.execute("ANALYZE");
                    }
                    String when = analyzed ? "after ANALYZE: " : "before ANALYZE: ";
                    if (db.dialect() == Dialect.POSTGRESQL) {
                        String plan = QueryPlans.explain(c, "EXPLAIN ANALYZE " + blocks, blockParams);
                        assertTrue(plan.contains("Index Scan Backward using statement_match_pkey"), when + plan);
                        assertEquals(MatchScan.FIRST_CHUNK, QueryPlans.rowsRead(MATCH_SCAN, plan), when + plan); // of ~63 rows
                        plan = QueryPlans.explain(c, "EXPLAIN ANALYZE " + bySeq, seqs);
                        assertEquals(PAGE, QueryPlans.rowsRead(STATEMENT_SCAN, plan), when + plan);
                    } else {
                        String plan = QueryPlans.explain(c, "EXPLAIN QUERY PLAN " + blocks, blockParams);
                        assertTrue(plan.contains("SEARCH statement_match USING PRIMARY KEY (entry=? AND block<?)"),
                                when + plan);
                        plan = QueryPlans.explain(c, "EXPLAIN QUERY PLAN " + bySeq, seqs);
                        assertTrue(plan.contains("SEARCH statement USING INTEGER PRIMARY KEY (rowid=?)"), when + plan);
                        assertFalse(plan.contains("SCAN statement"), when + plan);
                    }
                }
            }
            assertEquals(PAGE - 1, new StatementReader(db).page(new StatementQuery(
                    List.of(new KeyFilter(FilterKey.verb(COMMON), false)), null, null, PAGE - 1, false, 0))
                    .statements().size());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aLargeMatchTableWithoutStatisticsIsReadInIndexOrderUpToTheLimit(String dialect) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             Connection c = DriverManager.getConnection(t.url()); Statement s = c.createStatement()) {
            // 200 entries x 2,000 blocks, as a table of a few hundred thousand statements holds
            s.execute("INSERT INTO statement_match (entry, block, bits) WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL"
                    + " SELECT i + 1 FROM n WHERE i < 399999) SELECT i / 2000, i % 2000, 1 FROM n");
            String blocks = db.sql("match_blocks").replace("{dir}", "DESC").replace("{from}", "<=");
            long[] params = {20, Long.MAX_VALUE, MatchScan.FIRST_CHUNK};
            if (db.dialect() == Dialect.POSTGRESQL) {
                String plan = QueryPlans.explain(c, "EXPLAIN ANALYZE " + blocks, params);
                assertTrue(plan.contains("Index Scan Backward using statement_match_pkey"), plan);
                assertEquals(MatchScan.FIRST_CHUNK, QueryPlans.rowsRead(MATCH_SCAN, plan), plan); // of 2,000
            } else {
                String plan = QueryPlans.explain(c, "EXPLAIN QUERY PLAN " + blocks, params);
                assertTrue(plan.contains("SEARCH statement_match USING PRIMARY KEY (entry=? AND block<?)"), plan);
            }
        }
    }

    /**
     * On SQLite, statement_match_recent is read by its key from the block a read starts at, in the read's order, and
     * between a chunk's first and last blocks: ranges of the small table, each row's entry checked.
     */
    @Test
    void theRecentMatchRowsAreReadByTheirKey() throws Exception {
        try (TestDatabase t = TestDatabase.create("sqlite", dir); Database db = Database.open(t.url());
             Connection c = DriverManager.getConnection(t.url())) {
            String range = db.sql("recent_match_blocks").replace("{dir}", "DESC").replace("{from}", "<=");
            String plan = QueryPlans.explain(c, "EXPLAIN QUERY PLAN " + range, new long[] {20, Long.MAX_VALUE, 32});
            assertTrue(plan.contains("SEARCH statement_match_recent USING PRIMARY KEY (block<?)"), plan);
            assertFalse(plan.contains("TEMP B-TREE"), "no sort: " + plan);
            plan = QueryPlans.explain(c, "EXPLAIN QUERY PLAN " + db.sql("recent_match_blocks_between"), new long[] {20, 1, 3});
            assertTrue(plan.contains("SEARCH statement_match_recent USING PRIMARY KEY (block>? AND block<?)"), plan);
        }
    }

    private static long verbKey(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM filter_key WHERE kind = ? AND value = ?")) {
            ps.setInt(1, FilterKey.Kind.VERB.ordinal());
            ps.setString(2, COMMON);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
