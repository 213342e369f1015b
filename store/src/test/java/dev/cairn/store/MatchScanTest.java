package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MatchScan finds exactly the sequence numbers a brute-force scan finds: every filter matching, strictly inside the
 * bounds, in the query's order, as many as asked for, over dense and sparse entries, bounds inside a row, and pages
 * that take more than one read of the first filter's rows.
 */
class MatchScanTest {
    private static final int STATEMENTS = 20_000;
    /** Match densities of entries 1, 2 and 3: a common key, a rare one, and one as dense as a key can be. */
    private static final double[] DENSITY = {0, 0.125, 0.01, 1.0};

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void findsWhatABruteForceScanFinds(String dialect) throws SQLException {
        assertScansAgreeWithBruteForce(dialect, STATEMENTS);
    }

    /**
     * Commits of a few statements each, as single-statement writes make them: on SQLite their rows wait in
     * statement_match_recent and are merged into statement_match every {@link SqliteWriterBackend#MERGE_ROWS} rows, so
     * the index is split between the two tables, some rows in both.
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void findsWhatABruteForceScanFindsInRowsOfManySmallCommits(String dialect) throws SQLException {
        assertScansAgreeWithBruteForce(dialect, 3);
    }

    private void assertScansAgreeWithBruteForce(String dialect, int statementsPerCommit) throws SQLException {
        Random random = new Random(11);
        List<TreeSet<Long>> matches = new ArrayList<>();
        matches.add(new TreeSet<>());
        for (int entry = 1; entry < DENSITY.length; entry++) {
            matches.add(new TreeSet<>());
        }
        for (long seq = 1; seq <= STATEMENTS; seq++) {
            for (int entry = 1; entry < DENSITY.length; entry++) {
                if (random.nextDouble() < DENSITY[entry]) {
                    matches.get(entry).add(seq);
                }
            }
        }
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            try (Connection c = db.newWriter(); WriterBackend backend = db.dialect().writerBackend(db, c)) {
                c.setAutoCommit(false);
                PendingMatches pending = new PendingMatches(backend);
                long lastStoredBlock = -1;
                for (long first = 1; first <= STATEMENTS; first += statementsPerCommit) {
                    long last = Math.min(STATEMENTS, first + statementsPerCommit - 1);
                    for (int entry = 1; entry < DENSITY.length; entry++) {
                        for (long seq : matches.get(entry).subSet(first, true, last, true)) {
                            pending.add(entry, seq);
                        }
                    }
                    pending.flush(lastStoredBlock);
                    c.commit();
                    backend.afterCommit();
                    lastStoredBlock = MatchKeys.block(last);
                }
            }
            if (db.dialect().keepsRecentMatches() && statementsPerCommit < 100) {
                try (Connection c = db.reader(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM statement_match_recent),"
                             + " (SELECT count(*) FROM statement_match m JOIN statement_match_recent r"
                             + " ON r.block = m.block AND r.entry = m.entry)")) {
                    rs.next();
                    assertTrue(rs.getLong(1) > 0, "the last commits' rows wait in statement_match_recent");
                    assertTrue(rs.getLong(2) > 0, "a merge left a block's rows in both tables");
                }
            }
            long[][] bounds = {{0, Long.MAX_VALUE}, {0, 130}, {63, 65}, {64, 200}, {100, 101}, {5_000, 5_070},
                    {STATEMENTS - 10, Long.MAX_VALUE}, {1, 19_000}};
            int[] wants = {1, 33, 101, 1001};
            List<List<Long>> filters = List.of(List.of(1L), List.of(2L), List.of(3L), List.of(1L, 2L),
                    List.of(2L, 1L), List.of(3L, 1L, 2L));
            try (Connection c = db.reader()) {
                for (List<Long> entries : filters) {
                    for (long[] b : bounds) {
                        for (int want : wants) {
                            for (boolean ascending : new boolean[] {true, false}) {
                                String what = entries + " in (" + b[0] + ", " + b[1] + ") want " + want
                                        + (ascending ? " ascending" : " descending");
                                assertArrayEquals(bruteForce(matches, entries, b[0], b[1], ascending, want),
                                        MatchScan.seqs(c, db, entries, b[0], b[1], ascending, want), what);
                            }
                        }
                    }
                }
            }
        }
    }

    private static long[] bruteForce(List<TreeSet<Long>> matches, List<Long> entries, long lo, long hi,
                                     boolean ascending, int want) {
        TreeSet<Long> all = new TreeSet<>(matches.get(entries.get(0).intValue()));
        for (long e : entries) {
            all.retainAll(matches.get((int) e));
        }
        return (ascending ? all : all.descendingSet()).stream()
                .filter(s -> s > lo && s < hi).limit(want).mapToLong(Long::longValue).toArray();
    }
}
