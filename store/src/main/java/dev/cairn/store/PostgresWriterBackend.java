package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import org.postgresql.PGConnection;

/**
 * PostgreSQL: statement rows go in one binary COPY (which spares the server an INSERT's work per row: projection ~10%
 * faster than multi-row INSERTs). A match row merged costs the server about twice an insert's work (an index probe
 * before the insert), so the rows of blocks no earlier flush can have written, nearly all of them, are loaded with a
 * binary COPY too, and the others are merged in one statement that takes them as arrays.
 *
 * <p>A COPY waits twice for the server (for it to start, then for it to end) where a statement or a batch of them
 * waits once, and at a single writer's pace those waits are most of a transaction: a flush of at most
 * {@link #FEW_STATEMENTS} statement rows sends them as a batch of INSERTs, and one of at most {@link #FEW_MATCH_ROWS}
 * match rows merges them all. (With the watermark's move and the commit in one batch, a one-statement transaction
 * went from eight to ten round trips to five or six.)
 */
final class PostgresWriterBackend implements WriterBackend {
    /** A flush of at most this many statement rows sends them as a batch of INSERTs, a larger one by COPY. */
    static final int FEW_STATEMENTS = 16;
    /** Match rows a flush merges whole rather than loading the new ones by COPY. */
    static final int FEW_MATCH_ROWS = 64;

    /** A statement row held until the flush decides how it is sent. */
    private record Row(long seq, String id, long storedMillis, boolean voided, boolean voiding, byte[] json,
                       byte[] keys) {
    }

    private final PreparedStatement insertStatement;
    /** The rows of the next flush while they are few; once more arrive they go into {@link #statements}. */
    private final Row[] pending = new Row[FEW_STATEMENTS];
    /** Rows of the next flush, while at most {@link #FEW_STATEMENTS}; {@code FEW_STATEMENTS + 1} once they are more. */
    private int few;
    private final BinaryCopy statements;
    private final BinaryCopy newMatches;
    private final PreparedStatement mergeMatches;
    private final MatchBitClear clear;
    /** The driver's connection, which takes primitive arrays (sent in binary). */
    private final PGConnection pg;

    PostgresWriterBackend(Database db, Connection c) throws SQLException {
        pg = c.unwrap(PGConnection.class);
        insertStatement = c.prepareStatement(db.sql("insert_statement"));
        statements = new BinaryCopy(c, db.sql("copy_statements"));
        newMatches = new BinaryCopy(c, db.sql("copy_matches"));
        mergeMatches = c.prepareStatement(db.sql("upsert_matches"));
        clear = new MatchBitClear(db, c, "statement_match");
    }

    @Override
    public void clearMatches(long entry, long block, long bits) throws SQLException {
        clear.clear(entry, block, bits);
    }

    @Override
    public void addStatement(long seq, String id, long storedMillis, boolean voided, boolean voiding, byte[] json,
            byte[] keys) {
        if (few < FEW_STATEMENTS) {
            pending[few++] = new Row(seq, id, storedMillis, voided, voiding, json, keys);
            return;
        }
        if (few == FEW_STATEMENTS) { // more than a few: this flush goes by COPY, the rows held so far first
            for (Row r : pending) {
                copy(r);
            }
            Arrays.fill(pending, null);
            few++;
        }
        copy(seq, id, storedMillis, voided, voiding, json, keys);
    }

    private void copy(Row r) {
        copy(r.seq(), r.id(), r.storedMillis(), r.voided(), r.voiding(), r.json(), r.keys());
    }

    private void copy(long seq, String id, long storedMillis, boolean voided, boolean voiding, byte[] json,
            byte[] keys) {
        statements.row(7).int8(seq).text(id).int8(storedMillis).int2(voided ? 1 : 0).int2(voiding ? 1 : 0).bytea(json)
                .bytea(keys);
    }

    @Override
    public void flushStatements() throws SQLException {
        if (few <= FEW_STATEMENTS) {
            for (int i = 0; i < few; i++) {
                Row r = pending[i];
                insertStatement.setLong(1, r.seq());
                insertStatement.setString(2, r.id());
                insertStatement.setLong(3, r.storedMillis());
                insertStatement.setInt(4, r.voided() ? 1 : 0);
                insertStatement.setInt(5, r.voiding() ? 1 : 0);
                insertStatement.setBytes(6, r.json());
                insertStatement.setBytes(7, r.keys());
                insertStatement.addBatch();
            }
            if (few > 0) {
                insertStatement.executeBatch();
            }
        } else {
            statements.send();
        }
        Arrays.fill(pending, null);
        few = 0;
    }

    /** Rows of blocks after {@code lastStoredBlock} by COPY, the others merged as arrays; a few rows all merged. */
    @Override
    public void writeMatches(long[] entries, long[] blocks, long[] bits, int rows, long lastStoredBlock)
            throws SQLException {
        int merged = 0;
        for (int i = 0; i < rows; i++) {
            if (blocks[i] > lastStoredBlock && rows > FEW_MATCH_ROWS) {
                newMatches.row(3).int8(entries[i]).int8(blocks[i]).int8(bits[i]);
            } else {
                entries[merged] = entries[i];
                blocks[merged] = blocks[i];
                bits[merged++] = bits[i];
            }
        }
        newMatches.send();
        if (merged > 0) {
            mergeMatches.setArray(1, pg.createArrayOf("int8", Arrays.copyOf(entries, merged)));
            mergeMatches.setArray(2, pg.createArrayOf("int8", Arrays.copyOf(blocks, merged)));
            mergeMatches.setArray(3, pg.createArrayOf("int8", Arrays.copyOf(bits, merged)));
            mergeMatches.executeUpdate();
        }
    }

    @Override
    public void clear() throws SQLException {
        insertStatement.clearBatch();
        Arrays.fill(pending, null);
        few = 0;
        statements.clear();
        newMatches.clear();
    }

    @Override
    public void beforeBegin() {
    }

    @Override
    public void afterBegin() {
    }

    @Override
    public void afterCommit() {
        // the server checkpoints by itself
    }

    @Override
    public void afterRollback() {
        // nothing to give back
    }

    @Override
    public void close() {
        // the COPY buffers and the statement go with the connection
    }
}
