package dev.cairn.store;

import dev.cairn.xapi.DocumentKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The query side's reads of documents, canonical activity definitions and agent names. */
public final class DocumentReader {
    private final Database db;

    public DocumentReader(Database db) {
        this.db = db;
    }

    public Optional<StoredDocument> get(DocumentKey key) {
        try (Connection c = db.reader()) {
            return read(c, db, key);
        } catch (SQLException e) {
            throw new StoreException("cannot read document " + key + ": " + e.getMessage(), e);
        }
    }

    static Optional<StoredDocument> read(Connection c, Database db, DocumentKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(db.sql("document"))) {
            bindKey(ps, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new StoredDocument(rs.getString(1), rs.getBytes(2), rs.getString(3),
                        rs.getLong(4))) : Optional.empty();
            }
        }
    }

    /**
     * The ids of every document at {@code place} (its id is ignored; an empty registration means any), updated
     * after {@code sinceMillis}.
     */
    public DocumentIds ids(DocumentKey place, long sinceMillis) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("document_ids"))) {
            ps.setInt(1, place.kind().ordinal());
            ps.setString(2, place.activityId());
            ps.setString(3, place.agent());
            ps.setString(4, place.registration());
            ps.setString(5, place.registration());
            ps.setLong(6, sinceMillis);
            List<String> ids = new ArrayList<>();
            long last = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (ids.isEmpty() || !ids.get(ids.size() - 1).equals(rs.getString(1))) {
                        ids.add(rs.getString(1));
                    }
                    last = Math.max(last, rs.getLong(2));
                }
            }
            return new DocumentIds(ids, last);
        } catch (SQLException e) {
            throw new StoreException("cannot list documents at " + place + ": " + e.getMessage(), e);
        }
    }

    /** The canonical definition of an activity as a JSON object, if any statement defined it. */
    public Optional<byte[]> activityDefinition(String activityId) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("activity_definition"))) {
            ps.setString(1, activityId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getBytes(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read activity " + activityId + ": " + e.getMessage(), e);
        }
    }

    /** The names seen with an agent IFI key, sorted. */
    public List<String> agentNames(String agentKey) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("agent_names"))) {
            ps.setString(1, agentKey);
            List<String> names = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            return names;
        } catch (SQLException e) {
            throw new StoreException("cannot read agent " + agentKey + ": " + e.getMessage(), e);
        }
    }

    static void bindKey(PreparedStatement ps, DocumentKey key) throws SQLException {
        ps.setInt(1, key.kind().ordinal());
        ps.setString(2, key.activityId());
        ps.setString(3, key.agent());
        ps.setString(4, key.registration());
        ps.setString(5, key.id());
    }
}
