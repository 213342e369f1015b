package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * SQLite: statement rows go as a batch of INSERTs, match rows {@value #ROWS_PER_INSERT} to an INSERT (a row inserted
 * alone costs the driver a bind-step-reset round of native calls), and the write-ahead log is checkpointed off the
 * writer's thread ({@link WalCheckpointer}).
 *
 * <p>The match rows of a small commit go to statement_match_recent. statement_match is keyed by entry, so a
 * statement's dozen match rows sit on a dozen pages far apart, and a commit writes every page it changes whole to the
 * write-ahead log: one statement cost ~15 pages (~120 KB), 9.5 of them statement_match's (bench/profile-writes,
 * WalFrames). statement_match_recent is keyed by block, so a commit adds its rows at the end of one small table; once
 * it holds {@value #MERGE_ROWS} rows they are merged into statement_match in one statement, in its order, where many
 * rows share each page, and whenever the writer is idle ({@link WalCheckpointer.IdleWork}). Reads take both tables
 * ({@link MatchScan}); a flush of more than {@value #RECENT_FLUSH_ROWS} rows (a replay's, an import's) shares pages
 * enough and goes straight to statement_match.
 */
final class SqliteWriterBackend implements WriterBackend {
    static final int ROWS_PER_INSERT = 250;
    /** The most match rows a flush writes to statement_match_recent (a commit of ~100 statements). */
    static final int RECENT_FLUSH_ROWS = 1024;
    /** Match rows written to statement_match_recent (~200 statements' worth) before they are merged. */
    static final int MERGE_ROWS = 2048;

    private final WalCheckpointer checkpointer;
    private final PreparedStatement insertStatement;
    private final PreparedStatement oneMatch;
    private final PreparedStatement manyMatches;
    private final PreparedStatement oneRecentMatch;
    private final PreparedStatement manyRecentMatches;
    private final MatchBitClear clear;
    private final MatchBitClear clearRecent;
    private final Database db;
    /** For the merges of statement_match_recent on the writer's connection. */
    private final Statement statement;
    /** Rows written to statement_match_recent by commits since it was last emptied (a row updated counts again). */
    private long recentRows;
    /** The same, by the open transaction: negative when it emptied the table. */
    private long pendingRecentRows;

    /** Starts checkpointing for {@code c} before the writer opens its first transaction on it. */
    SqliteWriterBackend(Database db, Connection c) throws SQLException {
        checkpointer = WalCheckpointer.start(db, c, own -> mergeWhileIdle(db, own));
        try {
            insertStatement = c.prepareStatement(db.sql("insert_statement"));
            String upsert = db.sql("upsert_matches");
            oneMatch = c.prepareStatement(upsert.replace("{rows}", "(?, ?, ?)"));
            manyMatches = c.prepareStatement(upsert.replace("{rows}", manyRows()));
            String upsertRecent = db.sql("upsert_recent_matches");
            oneRecentMatch = c.prepareStatement(upsertRecent.replace("{rows}", "(?, ?, ?)"));
            manyRecentMatches = c.prepareStatement(upsertRecent.replace("{rows}", manyRows()));
            clear = new MatchBitClear(db, c, "statement_match");
            clearRecent = new MatchBitClear(db, c, "statement_match_recent");
            this.db = db;
            statement = c.createStatement();
            recentRows = recentRows(db, statement);
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

    /**
     * Merges statement_match_recent into statement_match while the writer is idle, on the checkpointer's connection
     * {@code c} (auto-commit), so that reads at rest find every match row in one table. This writer's count of recent
     * rows is then too high, which only brings its next merge (of a smaller table) forward.
     */
    private static void mergeWhileIdle(Database db, Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (recentRows(db, s) == 0) {
                return;
            }
            s.execute("BEGIN IMMEDIATE");
            try {
                merge(db, s);
                s.execute("COMMIT");
            } catch (SQLException e) {
                s.execute("ROLLBACK");
                throw e;
            }
        }
    }

    /** Moves every row of statement_match_recent into statement_match, in the transaction {@code s} runs in. */
    private static void merge(Database db, Statement s) throws SQLException {
        s.executeUpdate(db.sql("merge_recent_matches"));
        s.executeUpdate(db.sql("delete_recent_matches"));
    }

    private static long recentRows(Database db, Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery(db.sql("count_recent_matches"))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String manyRows() {
        return "(?, ?, ?)" + ", (?, ?, ?)".repeat(ROWS_PER_INSERT - 1);
    }

    /**
     * A small flush's rows into statement_match_recent, merged into statement_match once it holds enough; a large
     * one's straight into statement_match.
     */
    @Override
    public void writeMatches(long[] entries, long[] blocks, long[] bits, int rows, long lastStoredBlock)
            throws SQLException {
        if (rows > RECENT_FLUSH_ROWS) {
            upsert(manyMatches, oneMatch, entries, blocks, bits, rows);
            return;
        }
        upsert(manyRecentMatches, oneRecentMatch, entries, blocks, bits, rows);
        pendingRecentRows += rows;
        if (recentRows + pendingRecentRows >= MERGE_ROWS) {
            merge(db, statement);
            pendingRecentRows = -recentRows;
        }
    }

    /** Every row merged, {@value #ROWS_PER_INSERT} to a statement and the rest one by one. */
    private static void upsert(PreparedStatement many, PreparedStatement one, long[] entries, long[] blocks,
                               long[] bits, int rows) throws SQLException {
        int i = 0;
        for (; i + ROWS_PER_INSERT <= rows; i += ROWS_PER_INSERT) {
            for (int j = 0; j < ROWS_PER_INSERT; j++) {
                bind(many, 3 * j, entries[i + j], blocks[i + j], bits[i + j]);
            }
            many.addBatch();
        }
        if (i > 0) {
            many.executeBatch();
        }
        if (i < rows) {
            for (; i < rows; i++) {
                bind(one, 0, entries[i], blocks[i], bits[i]);
                one.addBatch();
            }
            one.executeBatch();
        }
    }

    private static void bind(PreparedStatement insert, int at, long entry, long block, long bits) throws SQLException {
        insert.setLong(at + 1, entry);
        insert.setLong(at + 2, block);
        insert.setLong(at + 3, bits);
    }

    /**
     * In both tables: a statement's rows may be in either, or in both (a block merged while its rows came); but not in
     * statement_match_recent when this writer knows it empty (its count is never too low), as after a replay, whose
     * large flushes go straight to statement_match: an erasure of many statements then changes one table.
     */
    @Override
    public void clearMatches(long entry, long block, long bits) throws SQLException {
        clear.clear(entry, block, bits);
        if (recentRows + pendingRecentRows != 0) {
            clearRecent.clear(entry, block, bits);
        }
    }

    @Override
    public void clear() throws SQLException {
        pendingRecentRows = 0;
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
        recentRows += pendingRecentRows;
        pendingRecentRows = 0;
        checkpointer.afterCommit();
    }

    /** The disk may be full: gives back the space of the failed transaction. */
    @Override
    public void afterRollback() {
        pendingRecentRows = 0;
        checkpointer.afterRollback();
    }

    @Override
    public void close() {
        checkpointer.close();
    }
}
