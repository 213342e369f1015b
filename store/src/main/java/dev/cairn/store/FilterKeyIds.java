package dev.cairn.store;

import dev.cairn.xapi.FilterKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The filter-key dictionary as the projection writer sees it: the id of every filter key, a new key taking the next
 * one, and the match entries of a statement's keys. Ids run from 1 to {@link #lastKeyId} (read when each transaction
 * opens), so while the cache holds that many keys it holds every key the database has, and a key it lacks is new
 * without asking the database (a fresh projection or a replay, until the cache is full). New keys are sent in a
 * batch, before the next lookup or at commit. A rollback empties the cache: it may hold keys of the transaction.
 */
final class FilterKeyIds {
    private final Database db;
    /**
     * Ids of the filter keys used lately; any other is looked up in filter_key. Bounded, since keys such as
     * registrations keep arriving for as long as the LRS runs.
     */
    private final Map<FilterKey, Long> cache;
    /** The most keys {@link #cache} holds. */
    private final int cacheSize;
    private PreparedStatement findKey;
    private PreparedStatement insertKey;
    private PreparedStatement maxKeyId;
    private PreparedStatement allKeys;
    private PreparedStatement keysOfKind;
    /** Keys inserted in the open transaction and not yet sent (they are in {@link #cache}). */
    private int pendingKeys;
    /** The last filter key id assigned. */
    private long lastKeyId;
    /**
     * Ids of the authority keys: the statements/read/mine restriction reads them, and it holds for the statement
     * itself, so a referrer never inherits them. Null until first needed and after a rollback (its new keys' ids
     * are assigned again).
     */
    private Set<Long> authorityKeyIds;

    /** Remembers the ids of at most {@code cacheSize} filter keys. */
    FilterKeyIds(Database db, int cacheSize) {
        this.db = db;
        this.cache = new LruMap<>(cacheSize);
        this.cacheSize = cacheSize;
    }

    /** Prepares the dictionary's statements on a new writer connection. */
    void prepare(Connection c) throws SQLException {
        findKey = c.prepareStatement(db.sql("find_key"));
        insertKey = c.prepareStatement(db.sql("insert_key"));
        maxKeyId = c.prepareStatement(db.sql("max_key_id"));
        allKeys = c.prepareStatement(db.sql("all_filter_keys"));
        keysOfKind = c.prepareStatement(db.sql("filter_key_ids_of_kind"));
    }

    /** Reads the last id assigned, as a transaction opens; an empty cache takes every stored key if they fit. */
    void open() throws SQLException {
        try (ResultSet rs = maxKeyId.executeQuery()) {
            rs.next();
            lastKeyId = rs.getLong(1);
        }
        if (cache.isEmpty() && lastKeyId > 0 && lastKeyId <= cacheSize) {
            loadKeys(); // at start or after a rollback: every stored key fits, so the cache can hold them all
        }
    }

    /** The match entries of a statement's own keys: each for any scope, agents and activities also for the narrow. */
    MatchKeys ownKeys(ProjectedStatement s) throws SQLException {
        long[] entries = new long[s.keys().keys().size() * 2];
        int n = 0;
        for (Map.Entry<FilterKey, Boolean> k : s.keys().keys().entrySet()) {
            long keyId = id(k.getKey());
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
    long authorityEntry(ProjectedStatement s) throws SQLException {
        for (FilterKey k : s.keys().keys().keySet()) {
            if (k.kind() == FilterKey.Kind.AUTHORITY) {
                return MatchKeys.entry(id(k), MatchKeys.SCOPE_ALL);
            }
        }
        return -1;
    }

    /** The ids of every authority key, those of the open transaction included. */
    Set<Long> authorityIds() throws SQLException {
        if (authorityKeyIds == null) {
            flush();
            authorityKeyIds = new HashSet<>();
            keysOfKind.setInt(1, FilterKey.Kind.AUTHORITY.ordinal());
            try (ResultSet rs = keysOfKind.executeQuery()) {
                while (rs.next()) {
                    authorityKeyIds.add(rs.getLong(1));
                }
            }
        }
        return authorityKeyIds;
    }

    /** The id of a filter key, added to filter_key if it is new. */
    long id(FilterKey key) throws SQLException {
        Long cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        Long stored = cache.size() == lastKeyId ? null : storedId(key);
        long id = stored != null ? stored : newKey(key);
        cache.put(key, id);
        return id;
    }

    private Long storedId(FilterKey key) throws SQLException {
        flush(); // the key may be a pending one the cache has let go
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

    /** Sends the new keys of the open transaction. */
    void flush() throws SQLException {
        if (pendingKeys > 0) {
            insertKey.executeBatch();
            pendingKeys = 0;
        }
    }

    /** Fills the empty cache with every stored key. */
    private void loadKeys() throws SQLException {
        FilterKey.Kind[] kinds = FilterKey.Kind.values();
        try (ResultSet rs = allKeys.executeQuery()) {
            while (rs.next()) {
                cache.put(new FilterKey(kinds[rs.getInt(2)], rs.getString(3)), rs.getLong(1));
            }
        }
    }

    /** Drops the new keys not yet sent (the transaction is rolled back). */
    void clearPending() throws SQLException {
        insertKey.clearBatch();
    }

    /** Forgets every id (after a rollback, or once the projection is dropped): they are read again when needed. */
    void forget() {
        pendingKeys = 0;
        cache.clear();
        authorityKeyIds = null;
    }
}
