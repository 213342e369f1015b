package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Match rows gathered over a transaction are written whatever their number and order: full multi-row INSERTs and
 * the rest one by one, sorted where their values allow it and in arrival order where they do not.
 */
class PendingMatchesTest {
    @TempDir
    Path dir;

    static List<String> dialects() {
        return TestDatabase.dialects().toList();
    }

    /** Adds {@code rows} (key id, scope, seq) in the given order, flushes, and returns the table's rows in key order. */
    private List<String> written(String dialect, long[][] rows) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             Connection c = db.newWriter()) {
            c.setAutoCommit(false);
            PendingMatches matches = new PendingMatches(c, db.sql("insert_match"));
            for (long[] r : rows) {
                matches.add(MatchKeys.entry(r[0], (int) r[1]), r[2]);
            }
            matches.flush();
            c.commit();
            List<String> out = new ArrayList<>();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT key_id, scope, seq FROM statement_match ORDER BY key_id, scope, seq")) {
                while (rs.next()) {
                    out.add(rs.getLong(1) + "/" + rs.getInt(2) + "/" + rs.getLong(3));
                }
            }
            return out;
        }
    }

    private static List<String> sorted(long[][] rows) {
        List<String> out = new ArrayList<>();
        for (long[] r : rows) {
            out.add(r[0] + "/" + r[1] + "/" + r[2]);
        }
        out.sort((a, b) -> {
            String[] x = a.split("/");
            String[] y = b.split("/");
            for (int i = 0; i < 3; i++) {
                int c = Long.compare(Long.parseLong(x[i]), Long.parseLong(y[i]));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        return out;
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void everyRowOfSeveralFullInsertsAndARemainderIsWritten(String dialect) throws SQLException {
        Random random = new Random(7);
        int n = 3 * PendingMatches.ROWS_PER_INSERT + 17;
        long[][] rows = new long[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = new long[] {1 + random.nextInt(40), random.nextInt(2), 1000 + i};
        }
        assertEquals(sorted(rows), written(dialect, rows));
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void rowsTooWideToPackAreWrittenInArrivalOrder(String dialect) throws SQLException {
        long[][] rows = {{1L << 40, 1, 5}, {3, 0, 1L << 40}, {2, 1, 1}};
        assertEquals(sorted(rows), written(dialect, rows));
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void clearedRowsAreNotWritten(String dialect) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             Connection c = db.newWriter()) {
            c.setAutoCommit(false);
            PendingMatches matches = new PendingMatches(c, db.sql("insert_match"));
            matches.add(MatchKeys.entry(1, 0), 1);
            matches.clear();
            matches.add(MatchKeys.entry(2, 1), 2);
            matches.flush();
            matches.flush();
            c.commit();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT key_id, scope, seq FROM statement_match")) {
                rs.next();
                assertEquals("2/1/2", rs.getLong(1) + "/" + rs.getInt(2) + "/" + rs.getLong(3));
                assertEquals(false, rs.next());
            }
        }
    }
}
