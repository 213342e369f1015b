package dev.cairn.store;

import dev.cairn.xapi.ActivityDefinition;
import dev.cairn.xapi.DocumentKey;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The projector's side of the store: adds statements, documents and what statements define inside a transaction,
 * and commits them together with the new watermark. The watermark update is a compare-and-set on the value this
 * writer last saw ({@link FencedTransaction}), so a second projector on the same database fails with
 * {@link FencedException} instead of applying rows twice. Statements and their StatementRefs are
 * {@link StatementRefGraph}'s, filter key ids {@link FilterKeyIds}', the other tables {@link ResourceWriter}'s, and
 * what differs between databases the {@link WriterBackend}'s of the connection.
 */
public final class ProjectionWriter implements AutoCloseable {
    /** Filter key ids remembered at most (~150 B each). */
    private static final int KEY_CACHE_SIZE = 200_000;

    private final Database db;
    private final FilterKeyIds keyIds;
    private final StatementRefGraph statements;
    private final ResourceWriter resources;
    private final FencedTransaction transaction;
    /** The bulk writes and housekeeping of the current connection. */
    private WriterBackend backend;
    private boolean inTransaction;

    public ProjectionWriter(Database db) {
        this(db, KEY_CACHE_SIZE);
    }

    /** A writer that remembers the ids of at most {@code keyCacheSize} filter keys. */
    ProjectionWriter(Database db, int keyCacheSize) {
        this.db = db;
        keyIds = new FilterKeyIds(db, keyCacheSize);
        statements = new StatementRefGraph(db, keyIds);
        resources = new ResourceWriter(db);
        transaction = new FencedTransaction(db, this::prepare);
        statements.startAt(transaction.committed());
    }

    /** Prepares everything this writer runs on a new connection, the previous connection's backend closed. */
    private void prepare(Connection c) throws SQLException {
        if (backend != null) {
            backend.close();
            backend = null; // until the new one is made: a closed one must not be used if making it fails
        }
        backend = db.dialect().writerBackend(db, c);
        keyIds.prepare(c);
        statements.prepare(c, backend);
        resources.prepare(c);
    }

    /** The watermark of the last commit. */
    public Watermark watermark() {
        return transaction.committed();
    }

    /** Adds one statement to the open transaction, in log order ({@link StatementRefGraph#add}). */
    public void add(ProjectedStatement s) {
        try {
            claim();
            statements.add(s);
        } catch (SQLException e) {
            throw new StoreException("cannot project statement " + s.id() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Takes the place of a statement an erasure took out of the log: it keeps its sequence number, so the statements
     * after it keep theirs, and adds no row but its id's among the erased ones, which may not be stored again.
     */
    public void addErased(UUID id, long storedMillis) {
        try {
            claim();
            statements.skip(storedMillis);
            resources.erased(id);
        } catch (SQLException e) {
            throw new StoreException("cannot project erased statement " + id + ": " + e.getMessage(), e);
        }
    }

    /**
     * Changes the statement rows in the open transaction to what a replay gives once an erasure has removed
     * {@code removed} from the log and rewritten {@code rewritten} in their places ({@link StatementRefGraph#erase}):
     * the removed ones leave their ids among the erased and their carried attachments; every other row keeps its
     * sequence number. The watermark does not move.
     */
    public void erase(Set<UUID> removed, Map<UUID, ProjectedStatement> rewritten) {
        try {
            claim();
            Set<String> removedIds = new HashSet<>();
            for (UUID id : removed) {
                removedIds.add(id.toString());
                resources.erased(id);
                resources.dropCarried(id);
            }
            Map<String, ProjectedStatement> rewrittenById = new HashMap<>();
            rewritten.forEach((id, s) -> rewrittenById.put(id.toString(), s));
            statements.erase(removedIds, rewrittenById);
        } catch (SQLException e) {
            throw new StoreException("cannot erase statements: " + e.getMessage(), e);
        }
    }

    /**
     * Deletes the documents, names and filter keys of the people with these IFI keys ({@link ResourceWriter}), once
     * {@link #erase} has taken them out of every statement.
     */
    public void forgetPeople(Set<String> agentKeys) {
        forget(agentKeys, resources::forgetPeople, "the documents and names of people");
    }

    /**
     * Deletes the names and the unmatched agent filter keys of the agents (IFI keys) that an erasure of statements by id
     * or stored time left nothing of, once {@link #erase} has taken its statements out.
     */
    public void forgetExpiredAgents(Set<String> agentKeys) {
        forget(agentKeys, resources::forgetExpiredAgents, "the names and keys of expired agents");
    }

    /** What {@link ResourceWriter} deletes of agents, by their IFI keys. */
    private interface AgentDeletion {
        void delete(Connection c, Set<String> agentKeys) throws SQLException;
    }

    private void forget(Set<String> agentKeys, AgentDeletion deletion, String what) {
        try {
            claim();
            keyIds.flush();
            deletion.delete(transaction.connection(), agentKeys);
            keyIds.forget(); // it may hold ids of the deleted keys
        } catch (SQLException e) {
            throw new StoreException("cannot erase " + what + ": " + e.getMessage(), e);
        }
    }

    /** Replaces an activity's stored definition: an erasure took a person out of it. */
    public void replaceActivityDefinition(String activityId, byte[] definition) {
        try {
            claim();
            resources.replaceDefinition(activityId, definition);
        } catch (SQLException e) {
            throw new StoreException("cannot store activity " + activityId + ": " + e.getMessage(), e);
        }
    }

    /** Replaces a name seen with an agent: an erasure took a person's address out of it. */
    public void renameAgent(String agentKey, String name, String renamed) {
        try {
            claim();
            resources.renameAgent(transaction.connection(), agentKey, name, renamed);
        } catch (SQLException e) {
            throw new StoreException("cannot store a name of agent " + agentKey + ": " + e.getMessage(), e);
        }
    }

    /** Records the erasure {@code erasureId} in the open transaction, which its changes to the tables commit with. */
    public void recordErasure(ErasureStore.Erasure e, String erasureId) {
        try {
            claim();
            ErasureStore.insert(db, transaction.connection(), e, erasureId);
        } catch (SQLException ex) {
            throw new StoreException("cannot record the erasure: " + ex.getMessage(), ex);
        }
    }

    /** Commits an erasure's changes ({@link #erase} and the others), the watermark where it was. */
    public Watermark commitErasure() {
        return commit(transaction.committed().logIndex());
    }

    /** Stores a document, replacing the one at the same key. */
    public void putDocument(DocumentKey key, StoredDocument doc) {
        try {
            claim();
            resources.putDocument(key, doc);
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
            claim();
            resources.deleteDocuments(key, all);
        } catch (SQLException e) {
            throw new StoreException("cannot delete documents at " + key + ": " + e.getMessage(), e);
        }
    }

    /**
     * Merges a definition a statement gives an activity into the stored one: language maps and extensions key by
     * key, every other property takes the newest value.
     */
    public void defineActivity(String activityId, ActivityDefinition definition) {
        try {
            claim();
            resources.defineActivity(activityId, definition);
        } catch (SQLException e) {
            throw new StoreException("cannot store activity " + activityId + ": " + e.getMessage(), e);
        }
    }

    /** Remembers a name seen with an agent IFI key (adding one already stored changes nothing). */
    public void addAgentName(String agentKey, String name) {
        try {
            claim();
            resources.addAgentName(agentKey, name);
        } catch (SQLException e) {
            throw new StoreException("cannot store a name of agent " + agentKey + ": " + e.getMessage(), e);
        }
    }

    /** Stores an attachment's content under its SHA-2; content already stored under that hash is kept. */
    public void putAttachment(String sha2, String contentType, byte[] content) {
        try {
            claim();
            resources.putAttachment(sha2, contentType, content);
        } catch (SQLException e) {
            throw new StoreException("cannot store attachment " + sha2 + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records that statement {@code id}'s own request carried the content of {@code sha2}: a GET with attachments
     * returns a statement with the contents its request carried and no other, whatever hashes its JSON names.
     */
    public void carriedAttachment(UUID id, String sha2) {
        try {
            claim();
            resources.carried(id, sha2);
        } catch (SQLException e) {
            throw new StoreException("cannot record attachment " + sha2 + " of statement " + id + ": " + e.getMessage(), e);
        }
    }

    /** Opens the transaction unless it is open: fenced first, then the key ids read and statements numbered. */
    private void claim() throws SQLException {
        if (inTransaction) {
            return;
        }
        if (backend != null) { // none before the first connection
            backend.beforeBegin();
        }
        boolean claimed;
        try {
            claimed = transaction.claim();
        } finally {
            statements.startAt(transaction.committed()); // a new connection may have found another watermark
        }
        if (!claimed) {
            rollback();
            throw transaction.fenced();
        }
        keyIds.open();
        inTransaction = true;
        backend.afterBegin();
    }

    /**
     * Commits everything added since the last commit, with the watermark moved to {@code logIndex}.
     *
     * @throws FencedException if another writer moved the watermark meanwhile
     */
    public Watermark commit(long logIndex) {
        try {
            keyIds.flush();
            statements.flush();
            if (!transaction.commit(logIndex, statements.storedMillis(), statements.seq())) {
                rollback();
                throw transaction.fenced();
            }
            inTransaction = false;
            backend.afterCommit();
            return transaction.committed();
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
        boolean broken = false;
        try {
            statements.clearPending();
            keyIds.clearPending();
        } catch (SQLException e) {
            broken = true;
        } finally {
            inTransaction = false;
            keyIds.forget(); // it may hold keys of the transaction; the next one loads the stored keys again
            resources.forget();
            statements.forget(transaction.committed());
        }
        if (transaction.rollback(broken)) {
            backend.afterRollback();
        }
    }

    /** Empties every projected table and resets the watermark, in one transaction (for replay). */
    public void dropProjection(Database db) {
        Connection c;
        try {
            c = transaction.connection();
        } catch (SQLException e) {
            throw new StoreException("cannot drop the projection tables: " + e.getMessage(), e);
        }
        try (java.sql.Statement s = c.createStatement()) {
            for (String sql : db.sql("drop_projection").split(";\\s*\n")) {
                s.execute(sql);
            }
            transaction.commitReset(Watermark.EMPTY);
            keyIds.forget();
            statements.forgetReferences();
            statements.startAt(Watermark.EMPTY);
            resources.forget();
        } catch (SQLException e) {
            rollback();
            throw new StoreException("cannot drop the projection tables: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (backend != null) {
            backend.close();
        }
        transaction.close();
    }
}
