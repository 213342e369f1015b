package dev.cairn.store;

import dev.cairn.xapi.FilterKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The projector's side of the store: adds statements inside a transaction and commits them together with the
 * new watermark. The watermark update is a compare-and-set on the value this writer last saw, so a second
 * projector on the same database fails with {@link FencedException} instead of applying rows twice.
 *
 * <p>Voiding is decided here, whatever the arrival order: a statement arriving after its voiding statement is
 * stored as voided; a voiding statement arriving after its target voids it. A voided statement keeps its row
 * (for {@code voidedStatementId}) but leaves the match index.
 */
public final class ProjectionWriter implements AutoCloseable {
    private static final int SCOPE_ALL = 0;
    private static final int SCOPE_NARROW = 1;

    private final Connection c;
    private final PreparedStatement insertStatement, statementExists, setVoided, findKey, insertKey, insertMatch,
            deleteMatches, insertRef, voidedBy, advance, readWatermark;
    private final Map<FilterKey, Long> keyIds = new HashMap<>();
    private Watermark committed;
    private boolean inTransaction;
    private long seq;
    private long storedMillis;

    public ProjectionWriter(Database db) {
        try {
            c = db.newWriter();
            c.setAutoCommit(false);
            insertStatement = c.prepareStatement(db.sql("insert_statement"));
            statementExists = c.prepareStatement(db.sql("statement_exists"));
            setVoided = c.prepareStatement(db.sql("set_voided"));
            findKey = c.prepareStatement(db.sql("find_key"));
            insertKey = c.prepareStatement(db.sql("insert_key"));
            insertMatch = c.prepareStatement(db.sql("insert_match"));
            deleteMatches = c.prepareStatement(db.sql("delete_matches"));
            insertRef = c.prepareStatement(db.sql("insert_ref"));
            voidedBy = c.prepareStatement(db.sql("voided_by"));
            advance = c.prepareStatement(db.sql("advance_watermark"));
            readWatermark = c.prepareStatement(db.sql("watermark"));
            committed = Database.readWatermark(readWatermark);
            c.commit();
            seq = committed.seq();
            storedMillis = committed.storedMillis();
        } catch (SQLException e) {
            throw new StoreException("cannot open the projection writer: " + e.getMessage(), e);
        }
    }

    /** The watermark of the last commit. */
    public Watermark watermark() {
        return committed;
    }

    /** Adds one statement to the open transaction, in log order. */
    public void add(ProjectedStatement s) {
        try {
            if (!inTransaction) {
                claim();
            }
            long mySeq = ++seq;
            storedMillis = s.storedMillis();
            String id = s.id().toString();
            boolean voided = !s.voiding() && isVoidedByStoredStatement(id);
            insertStatement.setLong(1, mySeq);
            insertStatement.setString(2, id);
            insertStatement.setLong(3, s.storedMillis());
            insertStatement.setInt(4, voided ? 1 : 0);
            insertStatement.setInt(5, s.voiding() ? 1 : 0);
            insertStatement.setBytes(6, s.json());
            insertStatement.executeUpdate();
            if (!voided) {
                for (Map.Entry<FilterKey, Boolean> k : s.keys().keys().entrySet()) {
                    long keyId = keyId(k.getKey());
                    insertMatch(keyId, SCOPE_ALL, mySeq);
                    boolean scoped = k.getKey().kind() == FilterKey.Kind.AGENT || k.getKey().kind() == FilterKey.Kind.ACTIVITY;
                    if (scoped && k.getValue()) {
                        insertMatch(keyId, SCOPE_NARROW, mySeq);
                    }
                }
            }
            UUID target = s.keys().refTarget();
            if (target != null) {
                insertRef.setLong(1, mySeq);
                insertRef.setString(2, target.toString());
                insertRef.setInt(3, s.voiding() ? 1 : 0);
                insertRef.executeUpdate();
                if (s.voiding()) {
                    voidTarget(target.toString());
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot project statement " + s.id() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens the transaction by writing the watermark row unchanged, compare-and-set on the value this writer last
     * committed: it takes the write lock first and fences a second projector before it touches any other row.
     */
    private void claim() throws SQLException {
        advance.setLong(1, committed.logIndex());
        advance.setLong(2, committed.storedMillis());
        advance.setLong(3, committed.seq());
        advance.setLong(4, committed.logIndex());
        if (advance.executeUpdate() != 1) {
            rollback();
            throw fenced();
        }
        inTransaction = true;
    }

    private FencedException fenced() {
        return new FencedException("the watermark is no longer at log index " + Long.toHexString(committed.logIndex())
                + ": another projector is writing to this database");
    }

    private boolean isVoidedByStoredStatement(String id) throws SQLException {
        voidedBy.setString(1, id);
        try (ResultSet rs = voidedBy.executeQuery()) {
            return rs.next();
        }
    }

    private void voidTarget(String targetId) throws SQLException {
        statementExists.setString(1, targetId);
        long targetSeq;
        try (ResultSet rs = statementExists.executeQuery()) {
            if (!rs.next() || rs.getInt(2) == 1 || rs.getInt(3) == 1) {
                return; // not stored yet (voided on arrival), already voided, or a voiding statement
            }
            targetSeq = rs.getLong(1);
        }
        setVoided.setLong(1, targetSeq);
        setVoided.executeUpdate();
        deleteMatches.setLong(1, targetSeq);
        deleteMatches.executeUpdate();
    }

    private void insertMatch(long keyId, int scope, long mySeq) throws SQLException {
        insertMatch.setLong(1, keyId);
        insertMatch.setInt(2, scope);
        insertMatch.setLong(3, mySeq);
        insertMatch.executeUpdate();
    }

    private long keyId(FilterKey key) throws SQLException {
        Long cached = keyIds.get(key);
        if (cached != null) {
            return cached;
        }
        findKey.setInt(1, key.kind().ordinal());
        findKey.setString(2, key.value());
        long id;
        try (ResultSet rs = findKey.executeQuery()) {
            if (rs.next()) {
                id = rs.getLong(1);
            } else {
                insertKey.setInt(1, key.kind().ordinal());
                insertKey.setString(2, key.value());
                insertKey.executeUpdate();
                try (ResultSet again = findKey.executeQuery()) {
                    again.next();
                    id = again.getLong(1);
                }
            }
        }
        keyIds.put(key, id);
        return id;
    }

    /**
     * Commits everything added since the last commit, with the watermark moved to {@code logIndex}.
     *
     * @throws FencedException if another writer moved the watermark meanwhile
     */
    public Watermark commit(long logIndex) {
        try {
            advance.setLong(1, logIndex);
            advance.setLong(2, storedMillis);
            advance.setLong(3, seq);
            advance.setLong(4, committed.logIndex());
            if (advance.executeUpdate() != 1) {
                rollback();
                throw fenced();
            }
            c.commit();
            inTransaction = false;
            committed = new Watermark(logIndex, storedMillis, seq);
            return committed;
        } catch (SQLException e) {
            rollback();
            throw new StoreException("cannot commit projection up to log index " + Long.toHexString(logIndex)
                    + ": " + e.getMessage(), e);
        }
    }

    /** Drops everything added since the last commit. */
    public void rollback() {
        try {
            c.rollback();
        } catch (SQLException e) {
            throw new StoreException("cannot roll back the projection transaction: " + e.getMessage(), e);
        } finally {
            inTransaction = false;
            keyIds.clear();
            seq = committed.seq();
            storedMillis = committed.storedMillis();
        }
    }

    /** Empties every projected table and resets the watermark, in one transaction (for replay). */
    public void dropProjection(Database db) {
        try (java.sql.Statement s = c.createStatement()) {
            for (String sql : db.sql("drop_projection").split(";\\s*\n")) {
                s.execute(sql);
            }
            c.commit();
            keyIds.clear();
            committed = Watermark.EMPTY;
            seq = 0;
            storedMillis = 0;
        } catch (SQLException e) {
            rollback();
            throw new StoreException("cannot drop the projection tables: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            c.rollback();
            c.close();
        } catch (SQLException e) {
            throw new StoreException("cannot close the projection writer: " + e.getMessage(), e);
        }
    }
}
