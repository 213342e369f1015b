package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queries by which a removal by time or id finds the statements it keeps ({@link ErasureStore#keptFrom}) read the
 * statements stored before its time, by index, never the ones kept: a daily retention check removes a day's and keeps
 * years'.
 */
class RetentionPlanTest {
    private static final int STATEMENTS = 4_000;
    private static final int REMOVED = 200;
    /** A PostgreSQL plan line that reads the statement table, with the rows and loops it actually ran. */
    private static final Pattern STATEMENT_SCAN =
            Pattern.compile(" on statement .*actual time=\\S+ rows=(\\d+) loops=(\\d+)");
    /** The rows a PostgreSQL scan read and its filter dropped. */
    private static final Pattern FILTERED = Pattern.compile("Rows Removed by Filter: (\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aRemovalByTimeReadsOnlyTheStatementsStoredBeforeIt(String dialect) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            PagePlanTest.project(db, STATEMENTS); // statement i stored at i ms
            long end = REMOVED + 1; // statements 1 to 200 were stored before it
            try (Connection c = DriverManager.getConnection(t.url()); Statement s = c.createStatement()) {
                // SQLite before and after ANALYZE: Cairn never gathers its statistics, and without them max(seq) was a
                // backward walk of every statement kept (141 s of a retention check on a 10,000,000-statement store).
                // PostgreSQL once its autovacuum has gathered them.
                for (boolean analyzed : dialect.equals("sqlite") ? new boolean[] {false, true} : new boolean[] {true}) {
                    if (analyzed) {
                        s.execute("ANALYZE");
                    }
                    reads(db, c, "last_seq_stored_before", new long[] {end}, "statement_stored (stored_ms<?)");
                    reads(db, c, "any_stored_from_below_seq", new long[] {REMOVED, end}, "PRIMARY KEY (rowid<?)");
                    reads(db, c, "first_seq_after", new long[] {REMOVED}, "PRIMARY KEY (rowid>?)");
                }
            }
        }
    }

    /**
     * Checks that {@code query} reads no more statement rows than the removed ones: on SQLite by the index its plan
     * names (SQLite's plans do not count rows), on PostgreSQL by the rows its scans read.
     */
    private static void reads(Database db, Connection c, String query, long[] params, String sqliteSearch)
            throws SQLException {
        if (db.dialect() == Dialect.POSTGRESQL) {
            String plan = QueryPlans.explain(c, "EXPLAIN ANALYZE " + db.sql(query), params);
            long read = QueryPlans.rowsRead(STATEMENT_SCAN, plan);
            Matcher m = FILTERED.matcher(plan);
            while (m.find()) {
                read += Long.parseLong(m.group(1));
            }
            assertTrue(read <= REMOVED, query + " read " + read + " rows of " + STATEMENTS + ":\n" + plan);
        } else {
            String plan = QueryPlans.explain(c, "EXPLAIN QUERY PLAN " + db.sql(query), params);
            assertTrue(plan.contains("SEARCH statement USING") && plan.contains(sqliteSearch), query + ": " + plan);
            assertFalse(plan.contains("SCAN statement"), query + ": " + plan);
        }
    }
}
