package dev.cairn.store;

import java.sql.SQLException;

/**
 * What the projection writer does differently on each database: how it sends statement rows and match rows in bulk,
 * and what it does on its connection after a transaction ends. The rest of the writer's SQL is the same on both.
 * One is made for each writer connection ({@link Dialect#writerBackend}) and closed when the next replaces it or the
 * writer closes.
 */
interface WriterBackend extends AutoCloseable {
    /** Adds a statement row to those the next {@link #flushStatements} sends. */
    void addStatement(long seq, String id, long storedMillis, boolean voided, boolean voiding, byte[] json,
            byte[] keys) throws SQLException;

    /** Writes every statement row added since the last flush. */
    void flushStatements() throws SQLException;

    /**
     * Merges folded match rows into statement_match by OR-ing their bits into the stored rows: row {@code i} is
     * ({@code entries[i]}, {@code blocks[i]}, {@code bits[i]}). Rows of blocks after {@code lastStoredBlock} are new,
     * since no earlier flush can have written them. The arrays' contents may be overwritten.
     */
    void writeMatches(long[] entries, long[] blocks, long[] bits, int rows, long lastStoredBlock) throws SQLException;

    /**
     * Takes the matches of {@code bits} (a bit per statement of the block) out of the row ({@code entry}, {@code
     * block}), wherever this backend keeps match rows.
     */
    void clearMatches(long entry, long block, long bits) throws SQLException;

    /** Forgets the rows added and not yet sent (the transaction is rolled back). */
    void clear() throws SQLException;

    /** Runs before the writer opens a transaction, when it holds no lock of the database. */
    void beforeBegin();

    /** Runs right after the writer opened a transaction. */
    void afterBegin();

    /** Runs right after each commit. */
    void afterCommit();

    /** Runs right after a rollback on a connection that still works. */
    void afterRollback();

    @Override
    void close();
}
