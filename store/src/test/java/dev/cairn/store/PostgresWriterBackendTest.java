package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL writer sends a few rows as INSERTs (one round trip) and more by COPY (two, but less work per row):
 * either way the tables end up the same.
 */
class PostgresWriterBackendTest {
    @TempDir
    Path dir;

    private interface Writes {
        void run(WriterBackend backend, Connection c) throws SQLException;
    }

    private void onWriter(Writes writes) throws SQLException {
        try (TestDatabase t = TestDatabase.create("postgresql", dir); Database db = Database.open(t.url());
             Connection c = db.newWriter(); WriterBackend backend = db.dialect().writerBackend(db, c)) {
            c.setAutoCommit(false);
            writes.run(backend, c);
        }
    }

    /** A statement row as stored: every column, the byte ones as text. */
    private record Row(long seq, String id, long storedMillis, boolean voided, boolean voiding, String json,
                       String keys) {
        static Row of(long seq) {
            return new Row(seq, new UUID(seq, seq).toString(), 1_000 + seq, seq % 3 == 0, seq % 5 == 0,
                    "{\"n\":" + seq + "}", "k" + seq);
        }
    }

    private static List<Row> storedRows(Connection c) throws SQLException {
        List<Row> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT seq, id, stored_ms, voided, voiding, json, keys FROM statement ORDER BY seq")) {
            while (rs.next()) {
                out.add(new Row(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4) == 1, rs.getInt(5) == 1,
                        new String(rs.getBytes(6), StandardCharsets.UTF_8),
                        new String(rs.getBytes(7), StandardCharsets.UTF_8)));
            }
        }
        return out;
    }

    @Test
    void flushesOfFewStatementRowsAndOfManyStoreEveryColumn() throws SQLException {
        int few = PostgresWriterBackend.FEW_STATEMENTS;
        onWriter((backend, c) -> {
            List<Row> added = new ArrayList<>();
            long seq = 0;
            for (int size : new int[] {1, few, few + 1, 3 * few}) { // INSERTs, INSERTs, COPY, COPY
                for (int i = 0; i < size; i++) {
                    Row r = Row.of(++seq);
                    backend.addStatement(r.seq(), r.id(), r.storedMillis(), r.voided(), r.voiding(),
                            r.json().getBytes(StandardCharsets.UTF_8), r.keys().getBytes(StandardCharsets.UTF_8));
                    added.add(r);
                }
                backend.flushStatements();
                c.commit();
                assertEquals(added, storedRows(c), "after a flush of " + size);
            }
        });
    }

    @Test
    void aRolledBackFlushOfFewLeavesNothingForTheNext() throws SQLException {
        onWriter((backend, c) -> {
            Row dropped = Row.of(1);
            backend.addStatement(dropped.seq(), dropped.id(), dropped.storedMillis(), false, false, new byte[] {'{', '}'},
                    new byte[0]);
            backend.clear();
            c.rollback();
            Row kept = Row.of(2);
            backend.addStatement(kept.seq(), kept.id(), kept.storedMillis(), kept.voided(), kept.voiding(),
                    kept.json().getBytes(StandardCharsets.UTF_8), kept.keys().getBytes(StandardCharsets.UTF_8));
            backend.flushStatements();
            c.commit();
            assertEquals(List.of(kept), storedRows(c));
        });
    }

    /** The match rows as stored, (entry, block) to bits. */
    private static Map<List<Long>, Long> storedMatches(Connection c) throws SQLException {
        Map<List<Long>, Long> out = new TreeMap<>((a, b) -> a.get(0).equals(b.get(0))
                ? Long.compare(a.get(1), b.get(1)) : Long.compare(a.get(0), b.get(0)));
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT entry, block, bits FROM statement_match")) {
            while (rs.next()) {
                out.put(List.of(rs.getLong(1), rs.getLong(2)), rs.getLong(3));
            }
        }
        return out;
    }

    @Test
    void flushesOfFewMatchRowsAndOfManyMergeIntoTheStoredRows() throws SQLException {
        int few = PostgresWriterBackend.FEW_MATCH_ROWS;
        onWriter((backend, c) -> {
            Map<List<Long>, Long> expected = storedMatches(c);
            long lastStoredBlock = -1;
            for (int rows : new int[] {few, few + 1, 1, 3 * few}) { // merged whole, COPY and merge, merged, both
                long[] entries = new long[rows];
                long[] blocks = new long[rows];
                long[] bits = new long[rows];
                for (int i = 0; i < rows; i++) {
                    entries[i] = i % 7; // half of each flush's rows in blocks written before, half in new ones
                    blocks[i] = i % 2 == 0 && lastStoredBlock >= 0 ? i % (lastStoredBlock + 1) : lastStoredBlock + 1 + i;
                    bits[i] = 1L << (rows % 64);
                    expected.merge(List.of(entries[i], blocks[i]), bits[i], (a, b) -> a | b);
                }
                long stored = lastStoredBlock;
                for (long b : blocks) {
                    lastStoredBlock = Math.max(lastStoredBlock, b);
                }
                backend.writeMatches(entries, blocks, bits, rows, stored);
                c.commit();
                assertEquals(expected, storedMatches(c), "after a flush of " + rows + " rows");
            }
        });
    }
}
