package dev.cairn.store;

import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The statements of the open transaction and the graph their StatementRefs make: each statement's row, match rows and
 * reference, and what it changes in the statements it meets, whatever the arrival order.
 *
 * <p>A statement arriving after its voiding statement is stored as voided when both have one authority (the
 * sequencer checked any other voiding against its target, which did not exist yet, so another authority's early
 * voiding statement voids nothing); a voiding statement arriving after its target voids it (the sequencer let it
 * through). A voided statement keeps its row (for {@code voidedStatementId}) and its keys (for its referrers) but
 * leaves the match index; statements that reference it, the voiding statement among them, keep matching through it.
 */
final class StatementRefGraph {
    /** Statement rows held pending at most: a large transaction keeps few statements in memory. */
    private static final int MAX_PENDING_ROWS = 1_000;

    private final Database db;
    private final FilterKeyIds keyIds;
    private WriterBackend rows;
    private PendingMatches matches;
    private PreparedStatement selectKeys;
    private PreparedStatement updateKeys;
    private PreparedStatement selectReferrers;
    private PreparedStatement referencedIds;
    private PreparedStatement setVoided;
    private PreparedStatement insertRef;
    private PreparedStatement erasureRow;
    private PreparedStatement deleteRow;
    private PreparedStatement deleteRef;
    /** Hashes of every id a stored StatementRef points at; null until first needed. */
    private Set<Long> referencedTargets;
    private int pendingRows;
    /**
     * Ids of the statements, and targets of the StatementRefs, among the pending rows: a lookup of anything else
     * finds all it needs in the database, so only a lookup of these flushes the rows first.
     */
    private final Set<String> pendingIds = new HashSet<>();
    private final Set<String> pendingRefTargets = new HashSet<>();
    /** The sequence number of the last statement added, and its stored time (both go into the watermark). */
    private long seq;
    private long storedMillis;
    /** The highest sequence number whose matches may have been written: the rows of later blocks are new. */
    private long matchedThroughSeq;

    StatementRefGraph(Database db, FilterKeyIds keyIds) {
        this.db = db;
        this.keyIds = keyIds;
    }

    /** Prepares the graph's statements on a new writer connection, whose bulk writes go through {@code backend}. */
    void prepare(Connection c, WriterBackend backend) throws SQLException {
        rows = backend;
        matches = new PendingMatches(backend);
        selectKeys = c.prepareStatement(db.sql("statement_keys"));
        updateKeys = c.prepareStatement(db.sql("update_keys"));
        selectReferrers = c.prepareStatement(db.sql("referrers"));
        referencedIds = c.prepareStatement(db.sql("referenced_ids"));
        setVoided = c.prepareStatement(db.sql("set_voided"));
        insertRef = c.prepareStatement(db.sql("insert_ref"));
        erasureRow = c.prepareStatement(db.sql("erasure_row"));
        deleteRow = c.prepareStatement(db.sql("delete_statement_row"));
        deleteRef = c.prepareStatement(db.sql("delete_ref"));
    }

    /** Numbers the next statement after those of {@code w}, whose matches are all written. */
    void startAt(Watermark w) {
        seq = w.seq();
        storedMillis = w.storedMillis();
        matchedThroughSeq = seq;
    }

    long seq() {
        return seq;
    }

    long storedMillis() {
        return storedMillis;
    }

    /** Takes one sequence number, in log order, for a statement an erasure took out: no row, no match. */
    void skip(long storedMillis) {
        ++seq;
        this.storedMillis = storedMillis;
    }

    /**
     * Adds one statement, in log order.
     *
     * <p>Its match rows are its own keys plus, when its object is a StatementRef to a stored statement, every key
     * that statement has (its own and those it inherits) but its authority, all under this statement's sequence
     * number. Statements already stored that reference this one (arrived earlier) gain its keys (but its authority),
     * and so on up the chain of referrers; each step adds only keys a referrer lacks, so chains and cycles end.
     */
    void add(ProjectedStatement s) throws SQLException {
        long mySeq = ++seq;
        storedMillis = s.storedMillis();
        add(s, mySeq);
    }

    /** Adds {@code s} under {@code mySeq}, as {@link #add(ProjectedStatement)} does under the next number. */
    private void add(ProjectedStatement s, long mySeq) throws SQLException {
        String id = s.id().toString();
        List<StoredKeys> referrers = mayBeReferenced(s.id()) ? referrers(id) : List.of();
        MatchKeys keys = keyIds.ownKeys(s);
        boolean voided = false;
        if (!s.voiding()) {
            long authority = keyIds.authorityEntry(s);
            for (StoredKeys r : referrers) {
                voided |= r.voiding() && (authority < 0 || r.keys().contains(authority));
            }
        }
        UUID target = s.keys().refTarget();
        StoredKeys targetKeys = target == null ? null : storedKeys(target.toString());
        if (targetKeys != null) {
            keys = keys.union(inheritable(targetKeys.keys()));
        }
        rows.addStatement(mySeq, id, s.storedMillis(), voided, s.voiding(), s.json(), keys.toBytes());
        pendingRows++;
        pendingIds.add(id);
        if (!voided) {
            insertMatches(keys, mySeq);
        }
        if (target != null) {
            insertRef.setLong(1, mySeq);
            insertRef.setString(2, target.toString());
            insertRef.setInt(3, s.voiding() ? 1 : 0);
            insertRef.addBatch();
            pendingRows++;
            pendingRefTargets.add(target.toString());
            referencedTargets.add(targetHash(target));
            if (s.voiding() && targetKeys != null && !targetKeys.voided() && !targetKeys.voiding()) {
                voidStatement(targetKeys);
            }
        }
        if (!referrers.isEmpty()) {
            propagate(referrers, inheritable(keys));
        }
        if (pendingRows >= MAX_PENDING_ROWS) {
            flushRows();
        }
    }

    /** A statement an erasure touches, as stored, and as the projector reads it. */
    private record ErasedRow(long seq, String id, boolean voided, MatchKeys keys, ProjectedStatement statement) {
    }

    /**
     * Changes the statement rows to what a replay of the log gives once the statements {@code removed} are erased
     * from it and those of {@code rewritten} stored there with new JSON, in their places (docs/erasure.md). The
     * affected set (those statements, the targets of those that void, and every referrer of any of them, transitively)
     * loses its rows, references and match bits, and its kept statements are added again in sequence order under their
     * own numbers: no statement outside the set references one inside it or was voided by one, so its rows are what a
     * replay makes of it, and adding the set in order is what a replay does with the set.
     *
     * @param removed   ids of the statements removed
     * @param rewritten the statements rewritten, by id
     */
    void erase(Set<String> removed, Map<String, ProjectedStatement> rewritten) throws SQLException {
        flush();
        Map<String, ErasedRow> affected = new HashMap<>();
        ArrayDeque<String> work = new ArrayDeque<>(removed);
        work.addAll(rewritten.keySet());
        while (!work.isEmpty()) {
            String id = work.poll();
            if (affected.containsKey(id)) {
                continue;
            }
            ErasedRow row = erasedRow(id);
            if (row == null) {
                continue;
            }
            affected.put(id, row);
            for (StoredKeys r : referrers(id)) {
                work.add(r.id());
            }
            UUID target = row.statement().keys().refTarget();
            if (row.statement().voiding() && target != null) {
                work.add(target.toString());
            }
        }
        List<ErasedRow> rowsInOrder = new ArrayList<>(affected.values());
        rowsInOrder.sort(Comparator.comparingLong(ErasedRow::seq));
        // Each match row changed once for all its statements, in key order: the statements an erasure takes out of a
        // stretch of the log share the rows of their verb, activities and authority
        Map<Long, Map<Long, Long>> clears = new TreeMap<>();
        for (ErasedRow r : rowsInOrder) {
            if (!r.voided()) {
                for (int i = 0; i < r.keys().size(); i++) {
                    clears.computeIfAbsent(r.keys().get(i), entry -> new TreeMap<>())
                            .merge(MatchKeys.block(r.seq()), MatchKeys.bit(r.seq()), (a, b) -> a | b);
                }
            }
        }
        for (Map.Entry<Long, Map<Long, Long>> entry : clears.entrySet()) {
            for (Map.Entry<Long, Long> block : entry.getValue().entrySet()) {
                rows.clearMatches(entry.getKey(), block.getKey(), block.getValue());
            }
        }
        for (ErasedRow r : rowsInOrder) {
            deleteRow.setLong(1, r.seq());
            deleteRow.executeUpdate();
            UUID target = r.statement().keys().refTarget();
            if (target != null) {
                deleteRef.setString(1, target.toString());
                deleteRef.setLong(2, r.seq());
                deleteRef.executeUpdate();
            }
        }
        for (ErasedRow r : rowsInOrder) {
            if (!removed.contains(r.id())) {
                add(rewritten.getOrDefault(r.id(), r.statement()), r.seq());
            }
        }
        flush();
    }

    private ErasedRow erasedRow(String id) throws SQLException {
        erasureRow.setString(1, id);
        try (ResultSet rs = erasureRow.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            byte[] json = rs.getBytes(4);
            Statement parsed = StatementParser.parseStored(json).statement();
            return new ErasedRow(rs.getLong(1), id, rs.getInt(3) == 1, MatchKeys.fromBytes(rs.getBytes(5)),
                    new ProjectedStatement(UUID.fromString(id), rs.getLong(2), json, FilterKeys.of(parsed),
                            parsed.isVoiding()));
        }
    }

    /** A stored statement as the projector sees it: where it is, its voiding state and its match rows. */
    private record StoredKeys(long seq, String id, boolean voided, boolean voiding, MatchKeys keys) {
    }

    /** A step of propagation: these referrers should gain these keys. */
    private record Propagation(List<StoredKeys> referrers, MatchKeys keys) {
    }

    /** Gives every referrer the keys it lacks of {@code added}, then their referrers, breadth first. */
    private void propagate(List<StoredKeys> referrers, MatchKeys added) throws SQLException {
        ArrayDeque<Propagation> work = new ArrayDeque<>();
        work.add(new Propagation(referrers, added));
        while (!work.isEmpty()) {
            Propagation step = work.poll();
            for (StoredKeys r : step.referrers()) {
                // Re-read: an earlier step of this propagation may have grown this referrer already.
                StoredKeys now = storedKeys(r.id());
                MatchKeys missing = step.keys().minus(now.keys());
                if (missing.isEmpty()) {
                    continue;
                }
                updateKeys.setBytes(1, now.keys().union(missing).toBytes());
                updateKeys.setLong(2, now.seq());
                updateKeys.executeUpdate();
                if (!now.voided()) {
                    insertMatches(missing, now.seq());
                }
                work.add(new Propagation(referrers(r.id()), missing));
            }
        }
    }

    /**
     * What a referrer inherits of {@code keys}: every key but the authority's (Comm 2.1.3 applies the filters of a
     * query to a StatementRef's target; which statements a credential may read is decided by each one's own authority).
     */
    private MatchKeys inheritable(MatchKeys keys) throws SQLException {
        return keys.withoutKeys(keyIds.authorityIds());
    }

    /**
     * Whether a StatementRef may point at {@code id}. Only a minority of statements are ever referenced, so a set
     * of the referenced ids' 64-bit hashes (loaded once, then kept up to date; a collision only costs a query)
     * spares most statements the referrers lookup.
     */
    private boolean mayBeReferenced(UUID id) throws SQLException {
        if (referencedTargets == null) {
            flushRows();
            referencedTargets = new HashSet<>();
            try (ResultSet rs = referencedIds.executeQuery()) {
                while (rs.next()) {
                    referencedTargets.add(targetHash(UUID.fromString(rs.getString(1))));
                }
            }
        }
        return referencedTargets.contains(targetHash(id));
    }

    private static long targetHash(UUID id) {
        return id.getMostSignificantBits() ^ id.getLeastSignificantBits();
    }

    private List<StoredKeys> referrers(String id) throws SQLException {
        if (pendingRefTargets.contains(id)) {
            flushRows();
        }
        selectReferrers.setString(1, id);
        List<StoredKeys> out = new ArrayList<>(0);
        try (ResultSet rs = selectReferrers.executeQuery()) {
            while (rs.next()) {
                out.add(new StoredKeys(rs.getLong(1), rs.getString(2), rs.getInt(3) == 1, rs.getInt(4) == 1,
                        MatchKeys.fromBytes(rs.getBytes(5))));
            }
        }
        return out;
    }

    private StoredKeys storedKeys(String id) throws SQLException {
        if (pendingIds.contains(id)) {
            flushRows();
        }
        selectKeys.setString(1, id);
        try (ResultSet rs = selectKeys.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            return new StoredKeys(rs.getLong(1), id, rs.getInt(2) == 1, rs.getInt(3) == 1,
                    MatchKeys.fromBytes(rs.getBytes(4)));
        }
    }

    /** Marks a statement voided and removes its match rows; it stays readable by voidedStatementId. */
    private void voidStatement(StoredKeys target) throws SQLException {
        flushRows();
        flushMatches(); // the rows to delete may still be pending
        setVoided.setLong(1, target.seq());
        setVoided.executeUpdate();
        for (int i = 0; i < target.keys().size(); i++) {
            rows.clearMatches(target.keys().get(i), MatchKeys.block(target.seq()), MatchKeys.bit(target.seq()));
        }
    }

    private void insertMatches(MatchKeys keys, long mySeq) {
        for (int i = 0; i < keys.size(); i++) {
            matches.add(keys.get(i), mySeq);
        }
    }

    /** Writes every pending row: statements and references, then matches. */
    void flush() throws SQLException {
        flushRows();
        flushMatches();
    }

    /**
     * Statement and statement_ref rows are batched too, but they are read back when a StatementRef or a voiding
     * meets its target in the same transaction: a read that needs a pending row flushes them first.
     */
    private void flushRows() throws SQLException {
        if (pendingRows > 0) {
            rows.flushStatements();
            insertRef.executeBatch();
            pendingRows = 0;
            pendingIds.clear();
            pendingRefTargets.clear();
        }
    }

    /** Writes the pending match rows; those of blocks past {@link #matchedThroughSeq}'s are new. */
    private void flushMatches() throws SQLException {
        matches.flush(MatchKeys.block(matchedThroughSeq));
        matchedThroughSeq = seq;
    }

    /** Drops the rows not yet sent (the transaction is rolled back). */
    void clearPending() throws SQLException {
        matches.clear();
        rows.clear();
        insertRef.clearBatch();
    }

    /** Forgets the open transaction, which was rolled back: numbering goes on after {@code committed}. */
    void forget(Watermark committed) {
        pendingRows = 0;
        pendingIds.clear();
        pendingRefTargets.clear();
        startAt(committed);
    }

    /** Forgets the references too, once the projection is dropped. */
    void forgetReferences() {
        referencedTargets = null;
    }
}
