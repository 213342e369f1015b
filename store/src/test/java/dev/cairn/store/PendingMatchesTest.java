package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Match rows gathered over a transaction are written whatever their number and order (on SQLite full multi-row
 * INSERTs and the rest one by one, on PostgreSQL one binary COPY), sorted where their values allow it and in
 * arrival order where they do not.
 */
class PendingMatchesTest {
    @TempDir
    Path dir;

    private interface Rows {
        void addTo(PendingMatches matches) throws SQLException;
    }

    /** Runs {@code rows} on a fresh writer, commits, and returns the table's rows in key order. */
    private List<String> written(String dialect, Rows rows) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             Connection c = db.newWriter()) {
            c.setAutoCommit(false);
            PendingMatches matches = new PendingMatches(c, db);
            rows.addTo(matches);
            matches.flush();
            c.commit();
            List<String> out = new ArrayList<>();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT entry, seq FROM statement_match ORDER BY entry, seq")) {
                while (rs.next()) {
                    out.add((rs.getLong(1) >> 1) + "/" + (rs.getLong(1) & 1) + "/" + rs.getLong(2));
                }
            }
            return out;
        }
    }

    /** Adds each (key id, scope, seq) in the given order. */
    private List<String> written(String dialect, long[][] rows) throws SQLException {
        return written(dialect, matches -> {
            for (long[] r : rows) {
                matches.add(MatchKeys.entry(r[0], (int) r[1]), r[2]);
            }
        });
    }

    private static List<String> sorted(long[][] rows) {
        long[][] copy = rows.clone();
        Arrays.sort(copy, Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1])
                .thenComparingLong(r -> r[2]));
        return Arrays.stream(copy).map(r -> r[0] + "/" + r[1] + "/" + r[2]).toList();
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void everyRowIsWrittenSeveralFullInsertsAndARemainderOfThem(String dialect) throws SQLException {
        Random random = new Random(7);
        int n = 3 * PendingMatches.ROWS_PER_INSERT + 17;
        long[][] rows = new long[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = new long[] {1 + random.nextInt(40), random.nextInt(2), 1000 + i};
        }
        assertEquals(sorted(rows), written(dialect, rows));
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void rowsTooWideToPackAreWrittenInArrivalOrder(String dialect) throws SQLException {
        long[][] rows = {{1L << 40, 1, 5}, {3, 0, 1L << 40}, {2, 1, 1}};
        assertEquals(sorted(rows), written(dialect, rows));
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void clearedRowsAreNotWritten(String dialect) throws SQLException {
        assertEquals(List.of("2/1/2"), written(dialect, matches -> {
            matches.add(MatchKeys.entry(1, 0), 1);
            matches.clear();
            matches.add(MatchKeys.entry(2, 1), 2);
            matches.flush();
        }));
    }
}
