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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A page of a filtered query reads one statement row per row it returns, also once the tables have statistics
 * (autovacuum gathers them on PostgreSQL by itself), when a cheaper-looking plan would scan the statement table.
 */
class PagePlanTest {
    /** A PostgreSQL plan line that reads the statement table, with the rows and loops it actually ran. */
    private static final Pattern STATEMENT_SCAN =
            Pattern.compile(" on statement s .*actual time=\\S+ rows=(\\d+) loops=(\\d+)");
    private static final String COMMON = "http://example.com/verbs/common";
    private static final int STATEMENTS = 4_000;
    private static final int PAGE = 101;

    @TempDir
    Path dir;

    private static ProjectedStatement statement(int i) {
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
    void aPageOfACommonVerbReadsOneStatementRowPerReturnedRowAfterAnalyze(String dialect) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            try (ProjectionWriter writer = new ProjectionWriter(db)) {
                for (int i = 1; i <= STATEMENTS; i++) {
                    writer.add(statement(i));
                }
                writer.commit(0);
            }
            String sql = db.sql("page_filtered").replace("{dir}", "DESC").replace("{and_also}", "");
            try (Connection c = DriverManager.getConnection(t.url()); Statement s = c.createStatement()) {
                s.execute("ANALYZE");
                long key = verbKey(c);
                if (db.dialect() == Dialect.POSTGRESQL) {
                    String plan = explain(c, "EXPLAIN ANALYZE " + sql, key);
                    assertEquals(PAGE, statementRowsRead(plan), plan);
                } else {
                    String plan = explain(c, "EXPLAIN QUERY PLAN " + sql, key);
                    assertTrue(plan.contains("SEARCH s USING INTEGER PRIMARY KEY"), plan);
                    assertFalse(plan.contains("SCAN s"), plan);
                }
            }
            assertEquals(PAGE - 1, new StatementReader(db).page(new StatementQuery(
                    List.of(new KeyFilter(FilterKey.verb(COMMON), false)), null, null, PAGE - 1, false, 0))
                    .statements().size());
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

    /** The plan as text, a line per node (SQLite's detail column). */
    private static String explain(Connection c, String sql, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, MatchKeys.entry(key, MatchKeys.SCOPE_ALL));
            ps.setLong(2, 0);
            ps.setLong(3, Long.MAX_VALUE);
            ps.setInt(4, PAGE);
            StringBuilder out = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.append(rs.getString(rs.getMetaData().getColumnCount())).append('\n');
                }
            }
            return out.toString();
        }
    }

    /** Rows the plan's scans of the statement table produced, over all their loops. */
    private static long statementRowsRead(String plan) {
        long rows = 0;
        Matcher m = STATEMENT_SCAN.matcher(plan);
        while (m.find()) {
            rows += Long.parseLong(m.group(1)) * Long.parseLong(m.group(2));
        }
        return rows;
    }
}
