package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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
 * Matches gathered over a transaction are written whatever their number and order (on SQLite full multi-row INSERTs
 * and the rest one by one, on PostgreSQL one statement of arrays), as one row per entry and block of 64 sequence
 * numbers, merged into the rows already stored.
 */
class PendingMatchesTest {
    @TempDir
    Path dir;

    private interface Rows {
        /** Adds the rows; returns the highest sequence number added. */
        long addTo(PendingMatches matches) throws SQLException;
    }

    /** What a table holds: every (key id, scope, seq) in (entry, seq) order, and how many rows hold them. */
    private record Stored(List<String> matches, long rows) {
    }

    /**
     * Runs each of {@code transactions} on one writer, committing after each; as the projector does, each tells the
     * flush that only blocks up to the last one written before may hold rows.
     */
    private Stored written(String dialect, Rows... transactions) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             Connection c = db.newWriter(); WriterBackend backend = db.dialect().writerBackend(db, c)) {
            c.setAutoCommit(false);
            PendingMatches matches = new PendingMatches(backend);
            long lastStoredBlock = -1;
            for (Rows rows : transactions) {
                long highest = rows.addTo(matches);
                matches.flush(lastStoredBlock);
                c.commit();
                lastStoredBlock = Math.max(lastStoredBlock, MatchKeys.block(highest));
            }
            return stored(db, c);
        }
    }

    /** The match index as reads see it (on SQLite, statement_match_recent OR-ed in); also checks no row is empty. */
    private static Stored stored(Database db, Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        long rows = 0;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(db.sql("checksum_statement_match"))) {
            while (rs.next()) {
                rows++;
                long entry = rs.getLong(1);
                long bits = rs.getLong(3);
                assertNotEquals(0, bits, "a stored row has a match");
                for (int i = 0; i < 64; i++) {
                    if ((bits & 1L << i) != 0) {
                        out.add((entry >> 1) + "/" + (entry & 1) + "/" + (rs.getLong(2) * 64 + i));
                    }
                }
            }
        }
        for (String table : db.dialect().keepsRecentMatches() ? List.of("statement_match", "statement_match_recent")
                : List.of("statement_match")) {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table + " WHERE bits = 0")) {
                rs.next();
                assertEquals(0, rs.getLong(1), "rows of " + table + " without a match");
            }
        }
        return new Stored(out, rows);
    }

    /** Adds each (key id, scope, seq) in the given order. */
    private static Rows adding(long[][] rows) {
        return matches -> {
            long highest = -1;
            for (long[] r : rows) {
                matches.add(MatchKeys.entry(r[0], (int) r[1]), r[2]);
                highest = Math.max(highest, r[2]);
            }
            return highest;
        };
    }

    private static List<String> sorted(long[][] rows) {
        long[][] copy = rows.clone();
        Arrays.sort(copy, Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1])
                .thenComparingLong(r -> r[2]));
        return Arrays.stream(copy).map(r -> r[0] + "/" + r[1] + "/" + r[2]).toList();
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void everyMatchIsWrittenOverSeveralFullInsertsAndARemainderOfThem(String dialect) throws SQLException {
        Random random = new Random(7);
        int n = 40 * 3 * SqliteWriterBackend.ROWS_PER_INSERT;
        long[][] rows = new long[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = new long[] {1 + random.nextInt(40), random.nextInt(2), 1000 + i * 17L};
        }
        assertEquals(sorted(rows), written(dialect, adding(rows)).matches());
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void matchesOfOneEntryWithin64SequenceNumbersShareARow(String dialect) throws SQLException {
        long[][] rows = {{5, 0, 64}, {5, 0, 127}, {5, 0, 100}, {5, 1, 100}, {5, 0, 128}};
        Stored stored = written(dialect, adding(rows));
        assertEquals(sorted(rows), stored.matches());
        assertEquals(3, stored.rows(), "(5/0, block 1), (5/0, block 2), (5/1, block 1)");
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aLaterTransactionAddsItsBitsToTheStoredRowAndInsertsNewOnes(String dialect) throws SQLException {
        long[][] first = {{3, 0, 200}, {3, 0, 201}};
        long[][] second = {{3, 0, 202}, {3, 0, 199}, {4, 1, 202}, {3, 0, 640}};
        long[][] both = {{3, 0, 200}, {3, 0, 201}, {3, 0, 202}, {3, 0, 199}, {4, 1, 202}, {3, 0, 640}};
        Stored stored = written(dialect, adding(first), adding(second));
        assertEquals(sorted(both), stored.matches());
        assertEquals(3, stored.rows(), "(3/0, block 3), (3/0, block 10), (4/1, block 3)");
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void valuesTooWideToPackAreWrittenToo(String dialect) throws SQLException {
        long[][] rows = {{1L << 40, 1, 5}, {3, 0, 1L << 40}, {2, 1, 1}, {3, 0, 1}, {3, 0, (1L << 40) + 1}};
        assertEquals(sorted(rows), written(dialect, adding(rows)).matches());
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void clearedMatchesAreNotWritten(String dialect) throws SQLException {
        assertEquals(List.of("2/1/2"), written(dialect, matches -> {
            matches.add(MatchKeys.entry(1, 0), 1);
            matches.clear();
            matches.add(MatchKeys.entry(2, 1), 2);
            return 2;
        }).matches());
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void theLowestAndHighestBitOfARowAreKept(String dialect) throws SQLException {
        long[][] rows = {{9, 0, 63}, {9, 0, 0}, {9, 0, 127}};
        long[][] all = {{9, 0, 63}, {9, 0, 0}, {9, 0, 127}, {9, 0, 62}};
        assertEquals(sorted(all), written(dialect, adding(rows), adding(new long[][] {{9, 0, 62}})).matches());
    }
}
