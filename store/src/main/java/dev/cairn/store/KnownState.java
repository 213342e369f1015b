package dev.cairn.store;

import dev.cairn.xapi.DocumentKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The sequencer's view of what is already stored, read from the database: statements by id (voided ones included)
 * and documents by key, read in one snapshot together with the watermark, so the sequencer knows exactly which log
 * entries the answer covers.
 */
public final class KnownState implements StoredState {
    private final Database db;

    public KnownState(Database db) {
        this.db = db;
    }

    @Override
    public Snapshot find(Collection<UUID> ids, Collection<DocumentKey> documents) {
        try (Connection c = db.reader()) {
            c.setAutoCommit(false);
            try {
                Watermark w;
                try (PreparedStatement ps = c.prepareStatement(db.sql("watermark"))) {
                    w = Database.readWatermark(ps);
                }
                Map<UUID, byte[]> found = new HashMap<>();
                byId(c, "statements_by_ids", ids, rs -> found.put(UUID.fromString(rs.getString(1)), rs.getBytes(2)));
                List<UUID> absent = ids.stream().filter(id -> !found.containsKey(id)).toList();
                byId(c, "erased_by_ids", absent, rs -> found.put(UUID.fromString(rs.getString(1)), ERASED));
                Map<DocumentKey, StoredDocument> docs = new HashMap<>();
                for (DocumentKey key : documents) {
                    DocumentReader.read(c, db, key).ifPresent(d -> docs.put(key, d));
                }
                return new Snapshot(w, found, docs);
            } finally {
                c.commit();
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException("cannot look up statement ids: " + e.getMessage(), e);
        }
    }

    /** Runs query {@code name} for {@code ids}, a list of markers at a time, and gives {@code row} each row found. */
    private void byId(Connection c, String name, Collection<UUID> ids, Row row) throws SQLException {
        List<UUID> list = new ArrayList<>(ids);
        for (int from = 0; from < list.size(); from += Database.MAX_IN_LIST) {
            List<UUID> chunk = list.subList(from, Math.min(list.size(), from + Database.MAX_IN_LIST));
            try (PreparedStatement ps = c.prepareStatement(db.sqlIn(name, chunk.size()))) {
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setString(i + 1, chunk.get(i).toString());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        row.read(rs);
                    }
                }
            }
        }
    }

    private interface Row {
        void read(ResultSet rs) throws SQLException;
    }

    @Override
    public Watermark watermark() {
        return db.watermark();
    }

    @Override
    public Set<String> agentsBeingErased() {
        return new ErasureRequests(db).agentsBeingErased();
    }

    /** Streams the ids (a result set read in one transaction, so PostgreSQL need not hold them all). */
    @Override
    public void forEachStoredId(Consumer<UUID> each) {
        try (Connection c = db.reader()) {
            c.setAutoCommit(false); // PostgreSQL streams a result set only inside a transaction
            try (PreparedStatement ps = c.prepareStatement(db.sql("all_statement_ids"))) {
                ps.setFetchSize(10_000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        each.accept(UUID.fromString(rs.getString(1)));
                    }
                }
            } finally {
                c.commit();
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read the stored statement ids: " + e.getMessage(), e);
        }
    }
}
