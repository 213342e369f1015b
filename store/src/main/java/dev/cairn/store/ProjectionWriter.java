package dev.cairn.store;

import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.FilterKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The projector's side of the store: adds statements inside a transaction and commits them together with the
 * new watermark. The watermark update is a compare-and-set on the value this writer last saw, so a second
 * projector on the same database fails with {@link FencedException} instead of applying rows twice.
 *
 * <p>Voiding and StatementRef matches are decided here, whatever the arrival order: a statement arriving after
 * its voiding statement is stored as voided when both have one authority (the sequencer checked any other voiding
 * against its target, which did not exist yet, so another authority's early voiding statement voids nothing); a
 * voiding statement arriving after its target voids it (the sequencer let it through). A voided
 * statement keeps its row (for {@code voidedStatementId}) and its keys (for its referrers) but leaves the match
 * index; statements that reference it, the voiding statement among them, keep matching through it.
 *
 * <p>A failed transaction whose connection is broken (the database restarted, the network dropped it) discards the
 * connection with everything prepared on it; the next transaction opens a new one and first checks that the
 * watermark is where this writer left it.
 */
public final class ProjectionWriter implements AutoCloseable {
    /** Statement rows held pending at most: a large transaction keeps few statements in memory. */
    private static final int MAX_PENDING_ROWS = 1_000;
    /** Filter key ids remembered at most (~150 B each). */
    private static final int KEY_CACHE_SIZE = 200_000;

    /** How long a failed transaction's connection gets to prove it still works. */
    private static final int VALID_SECONDS = 2;
    /** {@link #committing} when no commit's outcome is unknown. */
    private static final long NO_COMMIT = Long.MIN_VALUE;

    private final Database db;
    /** The writer's connection; null once a failure has broken it, until the next transaction opens another. */
    private Connection c;
    private PreparedStatement selectKeys, updateKeys, selectReferrers, setVoided, findKey, insertKey, maxKeyId,
            allKeys, keysOfKind, referencedIds, clearMatchBit, deleteEmptyMatch, insertRef, advance, readWatermark,
            putDocument, deleteDocument, deleteDocuments, activityDefinition, putActivityDefinition, addAgentName,
            putAttachment;
    /**
     * Ids of the filter keys used lately; any other is looked up in filter_key. Bounded, since keys such as
     * registrations keep arriving for as long as the LRS runs.
     */
    private final Map<FilterKey, Long> keyIds;
    /** The most keys {@link #keyIds} holds. */
    private final int keyCacheSize;
    /** Keys inserted in the open transaction and not yet sent (they are in {@link #keyIds}). */
    private int pendingKeys;
    /** SQLite only: checkpoints the write-ahead log off this writer's thread; null on PostgreSQL. */
    private WalCheckpointer checkpointer;
    /**
     * Ids of the authority keys: the statements/read/mine restriction reads them, and it holds for the statement
     * itself, so a referrer never inherits them. Null until first needed and after a rollback (its new keys' ids
     * are assigned again).
     */
    private Set<Long> authorityKeyIds;
    /** Hashes of every id a stored StatementRef points at; null until first needed. */
    private Set<Long> referencedTargets;
    /** The stored definitions of activities read or written lately (bounded, cleared on rollback). */
    private final Map<String, byte[]> definitions = new LruMap<>(10_000);
    private Watermark committed;
    /**
     * The log index of a commit sent on a connection that broke before it answered, or {@link #NO_COMMIT}: the
     * database may hold it, which the next connection finds out.
     */
    private long committing = NO_COMMIT;
    private boolean inTransaction;
    private PendingStatements statements;
    private PendingMatches matches;
    private int pendingRows;
    /**
     * Ids of the statements, and targets of the StatementRefs, among the pending rows: a lookup of anything else
     * finds all it needs in the database, so only a lookup of these flushes the rows first.
     */
    private final Set<String> pendingIds = new HashSet<>();
    private final Set<String> pendingRefTargets = new HashSet<>();
    /** The last filter key id assigned; read when each transaction opens. */
    private long lastKeyId;
    private long seq;
    private long storedMillis;
    /** The highest sequence number whose matches may have been written: the rows of later blocks are new. */
    private long matchedThroughSeq;

    public ProjectionWriter(Database db) {
        this(db, KEY_CACHE_SIZE);
    }

    /** A writer that remembers the ids of at most {@code keyCacheSize} filter keys. */
    ProjectionWriter(Database db, int keyCacheSize) {
        this.db = db;
        keyIds = new LruMap<>(keyCacheSize);
        this.keyCacheSize = keyCacheSize;
        try {
            connect();
            committed = Database.readWatermark(readWatermark);
            c.commit();
        } catch (SQLException e) {
            discardConnection();
            throw new StoreException("cannot open the projection writer: " + e.getMessage(), e);
        }
        seq = committed.seq();
        storedMillis = committed.storedMillis();
        matchedThroughSeq = seq;
    }

    /** Opens the writer's connection and prepares everything this writer runs on it. */
    private void connect() throws SQLException {
        c = db.newWriter();
        try {
            if (db.dialect() == Dialect.SQLITE) {
                if (checkpointer != null) {
                    checkpointer.close();
                }
                checkpointer = WalCheckpointer.start(db, c);
            }
            c.setAutoCommit(false);
            statements = new PendingStatements(c, db);
            selectKeys = c.prepareStatement(db.sql("statement_keys"));
            updateKeys = c.prepareStatement(db.sql("update_keys"));
            selectReferrers = c.prepareStatement(db.sql("referrers"));
            referencedIds = c.prepareStatement(db.sql("referenced_ids"));
            setVoided = c.prepareStatement(db.sql("set_voided"));
            findKey = c.prepareStatement(db.sql("find_key"));
            insertKey = c.prepareStatement(db.sql("insert_key"));
            maxKeyId = c.prepareStatement(db.sql("max_key_id"));
            allKeys = c.prepareStatement(db.sql("all_filter_keys"));
            keysOfKind = c.prepareStatement(db.sql("filter_key_ids_of_kind"));
            matches = new PendingMatches(c, db);
            clearMatchBit = c.prepareStatement(db.sql("clear_match_bit"));
            deleteEmptyMatch = c.prepareStatement(db.sql("delete_empty_match"));
            insertRef = c.prepareStatement(db.sql("insert_ref"));
            advance = c.prepareStatement(db.sql("advance_watermark"));
            readWatermark = c.prepareStatement(db.sql("watermark"));
            putDocument = c.prepareStatement(db.sql("put_document"));
            deleteDocument = c.prepareStatement(db.sql("delete_document"));
            deleteDocuments = c.prepareStatement(db.sql("delete_documents"));
            activityDefinition = c.prepareStatement(db.sql("activity_definition"));
            putActivityDefinition = c.prepareStatement(db.sql("put_activity_definition"));
            addAgentName = c.prepareStatement(db.sql("add_agent_name"));
            putAttachment = c.prepareStatement(db.sql("put_attachment"));
        } catch (SQLException e) {
            discardConnection();
            throw e;
        }
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
        seq = stored.seq();
        storedMillis = stored.storedMillis();
        matchedThroughSeq = seq;
        throw new StoreException(answerLost
                ? "the commit up to log index " + Long.toHexString(stored.logIndex())
                        + " reached the database before its connection broke; going on after it"
                : "the database lost the commits after log index " + Long.toHexString(stored.logIndex()) + " (up to "
                        + was + "; a server crash loses them with synchronous_commit off): applying them again", null);
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

    /** The watermark of the last commit. */
    public Watermark watermark() {
        return committed;
    }

    /**
     * Adds one statement to the open transaction, in log order.
     *
     * <p>Its match rows are its own keys plus, when its object is a StatementRef to a stored statement, every key
     * that statement has (its own and those it inherits) but its authority, all under this statement's sequence
     * number. Statements already stored that reference this one (arrived earlier) gain its keys (but its authority),
     * and so on up the chain of referrers; each step adds only keys a referrer lacks, so chains and cycles end.
     */
    public void add(ProjectedStatement s) {
        try {
            if (!inTransaction) {
                claim();
            }
            long mySeq = ++seq;
            storedMillis = s.storedMillis();
            String id = s.id().toString();
            List<StoredKeys> referrers = mayBeReferenced(s.id()) ? referrers(id) : List.of();
            MatchKeys keys = ownKeys(s);
            boolean voided = false;
            if (!s.voiding()) {
                long authority = authorityEntry(s);
                for (StoredKeys r : referrers) {
                    voided |= r.voiding() && (authority < 0 || r.keys().contains(authority));
                }
            }
            UUID target = s.keys().refTarget();
            StoredKeys targetKeys = target == null ? null : storedKeys(target.toString());
            if (targetKeys != null) {
                keys = keys.union(inheritable(targetKeys.keys()));
            }
            statements.add(mySeq, id, s.storedMillis(), voided, s.voiding(), s.json(), keys.toBytes());
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
        } catch (SQLException e) {
            throw new StoreException("cannot project statement " + s.id() + ": " + e.getMessage(), e);
        }
    }

    /** Stores a document, replacing the one at the same key. */
    public void putDocument(DocumentKey key, StoredDocument doc) {
        try {
            if (!inTransaction) {
                claim();
            }
            DocumentReader.bindKey(putDocument, key);
            putDocument.setString(6, doc.contentType());
            putDocument.setBytes(7, doc.content());
            putDocument.setString(8, doc.etag());
            putDocument.setLong(9, doc.updatedMillis());
            putDocument.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot store document " + key + ": " + e.getMessage(), e);
        }
    }

    /**
     * Deletes the document at {@code key}, or with {@code all} every document of the key's resource, activity and
     * agent (of its registration, when that is not empty).
     */
    public void deleteDocuments(DocumentKey key, boolean all) {
        try {
            if (!inTransaction) {
                claim();
            }
            if (all) {
                deleteDocuments.setInt(1, key.kind().ordinal());
                deleteDocuments.setString(2, key.activityId());
                deleteDocuments.setString(3, key.agent());
                deleteDocuments.setString(4, key.registration());
                deleteDocuments.setString(5, key.registration());
                deleteDocuments.executeUpdate();
            } else {
                DocumentReader.bindKey(deleteDocument, key);
                deleteDocument.executeUpdate();
            }
        } catch (SQLException e) {
            throw new StoreException("cannot delete documents at " + key + ": " + e.getMessage(), e);
        }
    }

    /** The canonical definition of an activity as stored in this transaction, or null. */
    public byte[] activityDefinition(String activityId) {
        byte[] cached = definitions.get(activityId);
        if (cached != null) {
            return cached;
        }
        try {
            activityDefinition.setString(1, activityId);
            try (ResultSet rs = activityDefinition.executeQuery()) {
                byte[] found = rs.next() ? rs.getBytes(1) : null;
                if (found != null) {
                    definitions.put(activityId, found);
                }
                return found;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read activity " + activityId + ": " + e.getMessage(), e);
        }
    }

    /** Replaces the canonical definition of an activity (the projector merges before calling this). */
    public void putActivityDefinition(String activityId, byte[] definition) {
        try {
            putActivityDefinition.setString(1, activityId);
            putActivityDefinition.setBytes(2, definition);
            putActivityDefinition.executeUpdate();
            definitions.put(activityId, definition);
        } catch (SQLException e) {
            throw new StoreException("cannot store activity " + activityId + ": " + e.getMessage(), e);
        }
    }

    /** Stores an attachment's content under its SHA-2; content already stored under that hash is kept. */
    public void putAttachment(String sha2, String contentType, byte[] content) {
        try {
            if (!inTransaction) {
                claim();
            }
            putAttachment.setString(1, sha2);
            putAttachment.setString(2, contentType);
            putAttachment.setBytes(3, content);
            putAttachment.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot store attachment " + sha2 + ": " + e.getMessage(), e);
        }
    }

    /** Remembers a name seen with an agent IFI key (adding one already stored changes nothing). */
    public void addAgentName(String agentKey, String name) {
        try {
            addAgentName.setString(1, agentKey);
            addAgentName.setString(2, name);
            addAgentName.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot store a name of agent " + agentKey + ": " + e.getMessage(), e);
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
        if (authorityKeyIds == null) {
            flushKeys();
            authorityKeyIds = new HashSet<>();
            keysOfKind.setInt(1, FilterKey.Kind.AUTHORITY.ordinal());
            try (ResultSet rs = keysOfKind.executeQuery()) {
                while (rs.next()) {
                    authorityKeyIds.add(rs.getLong(1));
                }
            }
        }
        return keys.withoutKeys(authorityKeyIds);
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

    private MatchKeys ownKeys(ProjectedStatement s) throws SQLException {
        long[] entries = new long[s.keys().keys().size() * 2];
        int n = 0;
        for (Map.Entry<FilterKey, Boolean> k : s.keys().keys().entrySet()) {
            long keyId = keyId(k.getKey());
            entries[n++] = MatchKeys.entry(keyId, MatchKeys.SCOPE_ALL);
            boolean scoped = k.getKey().kind() == FilterKey.Kind.AGENT || k.getKey().kind() == FilterKey.Kind.ACTIVITY;
            if (scoped && k.getValue()) {
                entries[n++] = MatchKeys.entry(keyId, MatchKeys.SCOPE_NARROW);
            }
        }
        return MatchKeys.of(entries, n);
    }

    /**
     * The match entry of the authority that stored {@code s}, or -1 for none (every statement Cairn stores has one;
     * a log written by hand may not, and its statements are voided as before authorities were compared).
     */
    private long authorityEntry(ProjectedStatement s) throws SQLException {
        for (FilterKey k : s.keys().keys().keySet()) {
            if (k.kind() == FilterKey.Kind.AUTHORITY) {
                return MatchKeys.entry(keyId(k), MatchKeys.SCOPE_ALL);
            }
        }
        return -1;
    }

    /** Marks a statement voided and removes its match rows; it stays readable by voidedStatementId. */
    private void voidStatement(StoredKeys target) throws SQLException {
        flushRows();
        flushMatches(); // the rows to delete may still be pending
        setVoided.setLong(1, target.seq());
        setVoided.executeUpdate();
        for (int i = 0; i < target.keys().size(); i++) {
            long entry = target.keys().get(i);
            clearMatchBit.setLong(1, MatchKeys.bit(target.seq()));
            clearMatchBit.setLong(2, entry);
            clearMatchBit.setLong(3, MatchKeys.block(target.seq()));
            clearMatchBit.executeUpdate();
            deleteEmptyMatch.setLong(1, entry);
            deleteEmptyMatch.setLong(2, MatchKeys.block(target.seq()));
            deleteEmptyMatch.executeUpdate();
        }
    }

    /** Writes the pending match rows; those of blocks past {@link #matchedThroughSeq}'s are new. */
    private void flushMatches() throws SQLException {
        matches.flush(MatchKeys.block(matchedThroughSeq));
        matchedThroughSeq = seq;
    }

    private void insertMatches(MatchKeys keys, long mySeq) {
        for (int i = 0; i < keys.size(); i++) {
            matches.add(keys.get(i), mySeq);
        }
    }

    /**
     * Opens the transaction by writing the watermark row unchanged, compare-and-set on the value this writer last
     * committed: it takes the write lock first and fences a second projector before it touches any other row.
     */
    private void claim() throws SQLException {
        if (c == null) {
            reconnect();
        }
        advance.setLong(1, committed.logIndex());
        advance.setLong(2, committed.storedMillis());
        advance.setLong(3, committed.seq());
        advance.setLong(4, committed.logIndex());
        if (advance.executeUpdate() != 1) {
            rollback();
            throw fenced();
        }
        try (ResultSet rs = maxKeyId.executeQuery()) {
            rs.next();
            lastKeyId = rs.getLong(1);
        }
        if (keyIds.isEmpty() && lastKeyId > 0 && lastKeyId <= keyCacheSize) {
            loadKeys(); // at start or after a rollback: every stored key fits, so the cache can hold them all
        }
        inTransaction = true;
    }

    private FencedException fenced() {
        return new FencedException("the watermark is no longer at log index " + Long.toHexString(committed.logIndex())
                + ": another projector is writing to this database");
    }

    /**
     * Statement and statement_ref rows are batched too, but they are read back when a StatementRef or a voiding
     * meets its target in the same transaction: a read that needs a pending row flushes them first.
     */
    private void flushRows() throws SQLException {
        if (pendingRows > 0) {
            statements.flush();
            insertRef.executeBatch();
            pendingRows = 0;
            pendingIds.clear();
            pendingRefTargets.clear();
        }
    }

    /**
     * The id of a filter key, added to filter_key if it is new. Ids run from 1 to {@link #lastKeyId} (each new key
     * takes the next), so while the cache holds that many keys it holds every key the database has, and a key it
     * lacks is new without asking the database (a fresh projection or a replay, until the cache is full). New keys
     * are sent in a batch, before the next lookup or at commit.
     */
    private long keyId(FilterKey key) throws SQLException {
        Long cached = keyIds.get(key);
        if (cached != null) {
            return cached;
        }
        Long stored = keyIds.size() == lastKeyId ? null : storedKeyId(key);
        long id = stored != null ? stored : newKey(key);
        keyIds.put(key, id);
        return id;
    }

    private Long storedKeyId(FilterKey key) throws SQLException {
        flushKeys(); // the key may be a pending one the cache has let go
        findKey.setInt(1, key.kind().ordinal());
        findKey.setString(2, key.value());
        try (ResultSet rs = findKey.executeQuery()) {
            return rs.next() ? rs.getLong(1) : null;
        }
    }

    private long newKey(FilterKey key) throws SQLException {
        long id = ++lastKeyId;
        insertKey.setLong(1, id);
        insertKey.setInt(2, key.kind().ordinal());
        insertKey.setString(3, key.value());
        insertKey.addBatch();
        pendingKeys++;
        if (key.kind() == FilterKey.Kind.AUTHORITY && authorityKeyIds != null) {
            authorityKeyIds.add(id);
        }
        return id;
    }

    private void flushKeys() throws SQLException {
        if (pendingKeys > 0) {
            insertKey.executeBatch();
            pendingKeys = 0;
        }
    }

    /** Fills the empty key cache with every stored key. */
    private void loadKeys() throws SQLException {
        FilterKey.Kind[] kinds = FilterKey.Kind.values();
        try (ResultSet rs = allKeys.executeQuery()) {
            while (rs.next()) {
                keyIds.put(new FilterKey(kinds[rs.getInt(2)], rs.getString(3)), rs.getLong(1));
            }
        }
    }

    /**
     * Commits everything added since the last commit, with the watermark moved to {@code logIndex}.
     *
     * @throws FencedException if another writer moved the watermark meanwhile
     */
    public Watermark commit(long logIndex) {
        try {
            flushKeys();
            flushRows();
            flushMatches();
            advance.setLong(1, logIndex);
            advance.setLong(2, storedMillis);
            advance.setLong(3, seq);
            advance.setLong(4, committed.logIndex());
            if (advance.executeUpdate() != 1) {
                rollback();
                throw fenced();
            }
            committing = logIndex;
            c.commit();
            committing = NO_COMMIT;
            inTransaction = false;
            committed = new Watermark(logIndex, storedMillis, seq);
            if (checkpointer != null) {
                checkpointer.afterCommit(c);
            }
            return committed;
        } catch (SQLException e) {
            rollback();
            throw new StoreException("cannot commit projection up to log index " + Long.toHexString(logIndex)
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Drops everything added since the last commit. A connection the failure has broken is closed (the next
     * transaction opens a new one), and with it everything this writer remembers of the transaction.
     */
    public void rollback() {
        boolean broken = c == null;
        try {
            matches.clear();
            statements.clear();
            insertRef.clearBatch();
            insertKey.clearBatch();
            if (!broken) {
                c.rollback();
            }
        } catch (SQLException e) {
            broken = true;
        } finally {
            pendingKeys = 0;
            pendingRows = 0;
            pendingIds.clear();
            pendingRefTargets.clear();
            inTransaction = false;
            keyIds.clear(); // it may hold keys of the transaction; the next one loads the stored keys again
            authorityKeyIds = null;
            definitions.clear();
            seq = committed.seq();
            storedMillis = committed.storedMillis();
            matchedThroughSeq = seq;
        }
        if (broken || !valid()) {
            discardConnection();
        } else {
            committing = NO_COMMIT; // the connection answered: a commit that failed on it did not happen
            if (checkpointer != null) {
                checkpointer.afterRollback(c); // the disk may be full: give back the space of the failed transaction
            }
        }
    }

    private boolean valid() {
        try {
            return c.isValid(VALID_SECONDS);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Empties every projected table and resets the watermark, in one transaction (for replay). */
    public void dropProjection(Database db) {
        try {
            if (c == null) {
                connect();
            }
        } catch (SQLException e) {
            throw new StoreException("cannot drop the projection tables: " + e.getMessage(), e);
        }
        try (java.sql.Statement s = c.createStatement()) {
            for (String sql : db.sql("drop_projection").split(";\\s*\n")) {
                s.execute(sql);
            }
            c.commit();
            keyIds.clear();
            authorityKeyIds = null;
            referencedTargets = null;
            definitions.clear();
            committed = Watermark.EMPTY;
            seq = 0;
            storedMillis = 0;
            matchedThroughSeq = 0;
        } catch (SQLException e) {
            rollback();
            throw new StoreException("cannot drop the projection tables: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (checkpointer != null) {
            checkpointer.close();
        }
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
