package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * SQLite: statement rows go as a batch of INSERTs, match rows {@value #ROWS_PER_INSERT} to an INSERT (a row inserted
 * alone costs the driver a bind-step-reset round of native calls), and the write-ahead log is checkpointed off the
 * writer's thread ({@link WalCheckpointer}).
 */
final class SqliteWriterBackend implements WriterBackend {
    static final int ROWS_PER_INSERT = 250;

    private final WalCheckpointer checkpointer;
    private final PreparedStatement insertStatement;
    private final PreparedStatement oneMatch;
    private final PreparedStatement manyMatches;

    /** Starts checkpointing for {@code c} before the writer opens its first transaction on it. */
    SqliteWriterBackend(Database db, Connection c) throws SQLException {
        checkpointer = WalCheckpointer.start(db, c);
        try {
            insertStatement = c.prepareStatement(db.sql("insert_statement"));
            String upsert = db.sql("upsert_matches");
            oneMatch = c.prepareStatement(upsert.replace("{rows}", "(?, ?, ?)"));
            manyMatches = c.prepareStatement(upsert.replace("{rows}",
                    "(?, ?, ?)" + ", (?, ?, ?)".repeat(ROWS_PER_INSERT - 1)));
        } catch (SQLException e) {
            checkpointer.close();
            throw e;
        }
    }

    @Override
    public void addStatement(long seq, String id, long storedMillis, boolean voided, boolean voiding, byte[] json,
            byte[] keys) throws SQLException {
        insertStatement.setLong(1, seq);
        insertStatement.setString(2, id);
        insertStatement.setLong(3, storedMillis);
        insertStatement.setInt(4, voided ? 1 : 0);
        insertStatement.setInt(5, voiding ? 1 : 0);
        insertStatement.setBytes(6, json);
        insertStatement.setBytes(7, keys);
        insertStatement.addBatch();
    }

    @Override
    public void flushStatements() throws SQLException {
        insertStatement.executeBatch();
    }

    /** Every row merged, {@value #ROWS_PER_INSERT} to a statement and the rest one by one. */
    @Override
    public void writeMatches(long[] entries, long[] blocks, long[] bits, int rows, long lastStoredBlock)
            throws SQLException {
        int i = 0;
        for (; i + ROWS_PER_INSERT <= rows; i += ROWS_PER_INSERT) {
            for (int j = 0; j < ROWS_PER_INSERT; j++) {
                bind(manyMatches, 3 * j, entries[i + j], blocks[i + j], bits[i + j]);
            }
            manyMatches.addBatch();
        }
        if (i > 0) {
            manyMatches.executeBatch();
        }
        if (i < rows) {
            for (; i < rows; i++) {
                bind(oneMatch, 0, entries[i], blocks[i], bits[i]);
                oneMatch.addBatch();
            }
            oneMatch.executeBatch();
        }
    }

    private static void bind(PreparedStatement insert, int at, long entry, long block, long bits) throws SQLException {
        insert.setLong(at + 1, entry);
        insert.setLong(at + 2, block);
        insert.setLong(at + 3, bits);
    }

    @Override
    public void clear() throws SQLException {
        insertStatement.clearBatch();
    }

    @Override
    public void afterBegin() {
        checkpointer.afterBegin();
    }

    @Override
    public void beforeBegin() {
        checkpointer.beforeBegin();
    }

    @Override
    public void afterCommit() {
        checkpointer.afterCommit();
    }

    /** The disk may be full: gives back the space of the failed transaction. */
    @Override
    public void afterRollback() {
        checkpointer.afterRollback();
    }

    @Override
    public void close() {
        checkpointer.close();
    }
}
