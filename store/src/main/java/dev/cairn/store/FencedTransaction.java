package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The projection writer's connection and the fencing that makes it the only writer. Each transaction opens by
 * writing the watermark row unchanged, compare-and-set on the value this writer last committed, and commits by moving
 * it the same way: a second projector on the same database fails with {@link FencedException} instead of applying
 * rows twice.
 *
 * <p>A failed transaction whose connection is broken (the database restarted, the network dropped it) discards the
 * connection with everything prepared on it; the next transaction opens a new one and first checks that the
 * watermark is where this writer left it.
 */
final class FencedTransaction {
    /** Prepares what the rest of the writer runs on a new connection, before its first transaction. */
    interface OnConnect {
        void prepare(Connection c) throws SQLException;
    }

    /** How long a failed transaction's connection gets to prove it still works. */
    private static final int VALID_SECONDS = 2;
    /** {@link #committing} when no commit's outcome is unknown. */
    private static final long NO_COMMIT = Long.MIN_VALUE;

    private final Database db;
    private final OnConnect onConnect;
    /** The writer's connection; null once a failure has broken it, until the next transaction opens another. */
    private Connection c;
    private PreparedStatement advance;
    private PreparedStatement readWatermark;
    private Watermark committed;
    /**
     * The log index of a commit sent on a connection that broke before it answered, or {@link #NO_COMMIT}: the
     * database may hold it, which the next connection finds out.
     */
    private long committing = NO_COMMIT;

    /** Connects and reads the watermark this writer goes on from. */
    FencedTransaction(Database db, OnConnect onConnect) {
        this.db = db;
        this.onConnect = onConnect;
        try {
            connect();
            committed = Database.readWatermark(readWatermark);
            c.commit();
        } catch (SQLException e) {
            discardConnection();
            throw new StoreException("cannot open the projection writer: " + e.getMessage(), e);
        }
    }

    /** The watermark of the last commit. */
    Watermark committed() {
        return committed;
    }

    /** The connection, opened again if a failure broke it (outside a transaction: no fencing check). */
    Connection connection() throws SQLException {
        if (c == null) {
            connect();
        }
        return c;
    }

    private void connect() throws SQLException {
        c = db.newWriter();
        try {
            onConnect.prepare(c);
            c.setAutoCommit(false);
            advance = c.prepareStatement(db.sql("advance_watermark"));
            readWatermark = c.prepareStatement(db.sql("watermark"));
        } catch (SQLException e) {
            discardConnection();
            throw e;
        }
    }

    /**
     * Opens the transaction by writing the watermark row unchanged: it takes the write lock first and fences a second
     * projector before it touches any other row.
     *
     * @return false if another writer moved the watermark (the caller rolls back and throws {@link #fenced})
     */
    boolean claim() throws SQLException {
        if (c == null) {
            reconnect();
        }
        return advance(committed.logIndex(), committed.storedMillis(), committed.seq());
    }

    /**
     * Moves the watermark to {@code logIndex} (with the last statement's time and sequence number) and commits.
     *
     * @return false if another writer moved the watermark meanwhile (nothing was committed)
     */
    boolean commit(long logIndex, long storedMillis, long seq) throws SQLException {
        if (!advance(logIndex, storedMillis, seq)) {
            return false;
        }
        committing = logIndex;
        c.commit();
        committing = NO_COMMIT;
        committed = new Watermark(logIndex, storedMillis, seq);
        return true;
    }

    private boolean advance(long logIndex, long storedMillis, long seq) throws SQLException {
        advance.setLong(1, logIndex);
        advance.setLong(2, storedMillis);
        advance.setLong(3, seq);
        advance.setLong(4, committed.logIndex());
        return advance.executeUpdate() == 1;
    }

    /**
     * Opens a new connection in place of a broken one, inside the transaction being claimed. The watermark must be
     * where this writer left it, or where the commit the broken connection never answered put it, or behind (a
     * server that crashed with {@code synchronous_commit} off loses its last commits, rows and watermark together).
     * In the last two cases this writer goes on from the stored watermark and fails the transaction, so that its
     * caller starts over there; any other watermark is another projector's.
     */
    private void reconnect() throws SQLException {
        connect();
        Watermark stored = Database.readWatermark(readWatermark);
        long attempted = committing;
        committing = NO_COMMIT;
        if (stored.equals(committed)) {
            return;
        }
        c.rollback();
        boolean answerLost = stored.logIndex() == attempted;
        if (!answerLost && stored.logIndex() >= committed.logIndex()) {
            throw fenced();
        }
        String was = Long.toHexString(committed.logIndex());
        committed = stored;
        throw new StoreException(answerLost
                ? "the commit up to log index " + Long.toHexString(stored.logIndex())
                        + " reached the database before its connection broke; going on after it"
                : "the database lost the commits after log index " + Long.toHexString(stored.logIndex()) + " (up to "
                        + was + "; a server crash loses them with synchronous_commit off): applying them again", null);
    }

    FencedException fenced() {
        return new FencedException("the watermark is no longer at log index " + Long.toHexString(committed.logIndex())
                + ": another projector is writing to this database");
    }

    /**
     * Rolls the transaction back. A connection that fails to, or no longer answers, is closed (the next transaction
     * opens a new one); {@code broken} says the caller found it broken already.
     *
     * @return whether the connection is kept
     */
    boolean rollback(boolean broken) {
        if (!broken && c != null) {
            try {
                c.rollback();
                if (c.isValid(VALID_SECONDS)) {
                    committing = NO_COMMIT; // the connection answered: a commit that failed on it did not happen
                    return true;
                }
            } catch (SQLException e) {
                // broken: closed below
            }
        }
        discardConnection();
        return false;
    }

    /** Commits the open work of {@code c} outside the fencing (dropping the projection) and starts from {@code w}. */
    void commitReset(Watermark w) throws SQLException {
        c.commit();
        committed = w;
    }

    /** Closes the connection, which may be broken already; the next transaction opens a new one. */
    private void discardConnection() {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException e) {
            // broken already: closing it was only to release what the driver holds
        }
        c = null;
    }

    void close() {
        if (c == null) {
            return;
        }
        try {
            c.rollback();
            c.close();
        } catch (SQLException e) {
            discardConnection();
            throw new StoreException("cannot close the projection writer: " + e.getMessage(), e);
        }
    }
}
