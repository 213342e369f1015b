package dev.cairn.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.xapi.ActivityDefinition;
import dev.cairn.xapi.DefinitionWriter;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.FilterKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the projection writer keeps besides statements: documents, the canonical definition of every activity (for
 * /activities and format=canonical), the names seen with each agent IFI (for /agents), and attachment contents.
 */
final class ResourceWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Database db;
    /** The stored definitions of activities read or written lately (bounded, cleared on rollback). */
    private final Map<String, byte[]> definitions = new LruMap<>(10_000);
    private PreparedStatement putDocument;
    private PreparedStatement deleteDocument;
    private PreparedStatement deleteDocuments;
    private PreparedStatement activityDefinition;
    private PreparedStatement putActivityDefinition;
    private PreparedStatement addAgentName;
    private PreparedStatement putAttachment;
    private PreparedStatement putStatementAttachment;
    private PreparedStatement insertErased;
    private PreparedStatement dropCarried;
    private PreparedStatement carriedBy;
    private PreparedStatement deleteOrphan;

    ResourceWriter(Database db) {
        this.db = db;
    }

    /** Prepares the statements on a new writer connection. */
    void prepare(Connection c) throws SQLException {
        putDocument = c.prepareStatement(db.sql("put_document"));
        deleteDocument = c.prepareStatement(db.sql("delete_document"));
        deleteDocuments = c.prepareStatement(db.sql("delete_documents"));
        activityDefinition = c.prepareStatement(db.sql("activity_definition"));
        putActivityDefinition = c.prepareStatement(db.sql("put_activity_definition"));
        addAgentName = c.prepareStatement(db.sql("add_agent_name"));
        putAttachment = c.prepareStatement(db.sql("put_attachment"));
        putStatementAttachment = c.prepareStatement(db.sql("put_statement_attachment"));
        dropCarried = c.prepareStatement(db.sql("delete_statement_attachments"));
        carriedBy = c.prepareStatement(db.sql("statement_attachments"));
        deleteOrphan = c.prepareStatement(db.sql("delete_orphan_attachment"));
        insertErased = c.prepareStatement(db.sql("insert_erased_statement"));
    }

    /** Records the id of a statement an erasure took out, which may not be stored again. */
    void erased(UUID id) throws SQLException {
        insertErased.setString(1, id.toString());
        insertErased.executeUpdate();
    }

    void putDocument(DocumentKey key, StoredDocument doc) throws SQLException {
        DocumentReader.bindKey(putDocument, key);
        putDocument.setString(6, doc.contentType());
        putDocument.setBytes(7, doc.content());
        putDocument.setString(8, doc.etag());
        putDocument.setLong(9, doc.updatedMillis());
        putDocument.executeUpdate();
    }

    void deleteDocuments(DocumentKey key, boolean all) throws SQLException {
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
    }

    /**
     * Merges {@code given} into the activity's stored definition: language maps and extensions key by key, every
     * other property takes the given value. A definition the merge leaves as it was is not written again.
     */
    void defineActivity(String activityId, ActivityDefinition given) throws SQLException {
        byte[] existing = storedDefinition(activityId);
        byte[] updated = merged(existing, DefinitionWriter.write(given));
        if (existing == null || !Arrays.equals(existing, updated)) {
            putActivityDefinition.setString(1, activityId);
            putActivityDefinition.setBytes(2, updated);
            putActivityDefinition.executeUpdate();
            definitions.put(activityId, updated);
        }
    }

    private byte[] storedDefinition(String activityId) throws SQLException {
        byte[] cached = definitions.get(activityId);
        if (cached != null) {
            return cached;
        }
        activityDefinition.setString(1, activityId);
        try (ResultSet rs = activityDefinition.executeQuery()) {
            byte[] found = rs.next() ? rs.getBytes(1) : null;
            if (found != null) {
                definitions.put(activityId, found);
            }
            return found;
        }
    }

    private static byte[] merged(byte[] existing, byte[] given) {
        try {
            ObjectNode merged = existing == null ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(existing);
            Iterator<Map.Entry<String, JsonNode>> fields = JSON.readTree(given).fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                JsonNode old = merged.get(f.getKey());
                boolean keyByKey = f.getKey().equals("name") || f.getKey().equals("description")
                        || f.getKey().equals("extensions");
                if (keyByKey && old instanceof ObjectNode oldMap && f.getValue().isObject()) {
                    oldMap.setAll((ObjectNode) f.getValue());
                } else {
                    merged.set(f.getKey(), f.getValue());
                }
            }
            return JSON.writeValueAsBytes(merged);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot merge a stored activity definition", e);
        }
    }

    /** Remembers a name seen with an agent IFI key (adding one already stored changes nothing). */
    void addAgentName(String agentKey, String name) throws SQLException {
        addAgentName.setString(1, agentKey);
        addAgentName.setString(2, name);
        addAgentName.executeUpdate();
    }

    /**
     * Forgets the contents statement {@code id}'s request carried (the statement is erased), and each content no other
     * statement's request carried.
     */
    void dropCarried(UUID id) throws SQLException {
        List<String> hashes = new ArrayList<>();
        carriedBy.setString(1, id.toString());
        try (ResultSet rs = carriedBy.executeQuery()) {
            while (rs.next()) {
                hashes.add(rs.getString(1));
            }
        }
        dropCarried.setString(1, id.toString());
        dropCarried.executeUpdate();
        for (String sha2 : hashes) {
            deleteOrphan.setString(1, sha2);
            deleteOrphan.setString(2, sha2);
            deleteOrphan.executeUpdate();
        }
    }

    /**
     * Deletes what the tables keep of the people with these IFI keys besides statements: their State and Agent Profile
     * documents, the names seen with them, and their filter keys as agents and authorities (no statement uses them
     * once their statements are erased).
     */
    void forgetPeople(Connection c, Set<String> agentKeys) throws SQLException {
        try (PreparedStatement documents = c.prepareStatement(db.sql("delete_person_documents"));
             PreparedStatement names = c.prepareStatement(db.sql("delete_agent_names"));
             PreparedStatement keys = c.prepareStatement(db.sql("delete_filter_key"))) {
            for (String key : agentKeys) {
                documents.setString(1, key);
                documents.executeUpdate();
                names.setString(1, key);
                names.executeUpdate();
                for (FilterKey.Kind kind : List.of(FilterKey.Kind.AGENT, FilterKey.Kind.AUTHORITY)) {
                    keys.setInt(1, kind.ordinal());
                    keys.setString(2, key);
                    keys.executeUpdate();
                }
            }
        }
    }

    /**
     * Deletes what the tables keep of the agents an erasure of chosen statements left nothing of (their IFI keys): their
     * names, and their agent and authority filter keys once no statement matches them.
     */
    void forgetExpiredAgents(Connection c, Set<String> agentKeys) throws SQLException {
        try (PreparedStatement names = c.prepareStatement(db.sql("delete_agent_names"));
             PreparedStatement keys = c.prepareStatement(db.sql("delete_unmatched_filter_key"))) {
            for (String key : agentKeys) {
                names.setString(1, key);
                names.executeUpdate();
                for (FilterKey.Kind kind : List.of(FilterKey.Kind.AGENT, FilterKey.Kind.AUTHORITY)) {
                    keys.setInt(1, kind.ordinal());
                    keys.setString(2, key);
                    keys.executeUpdate();
                }
            }
        }
    }

    /**
     * Replaces an activity's stored definition by {@code definition} (an erasure took a person out of it), written as
     * a merge writes one, so that its numbers read as a replay's would ({@code 1.0E-4}, not {@code 0.00010}).
     */
    void replaceDefinition(String activityId, byte[] definition) throws SQLException {
        putActivityDefinition.setString(1, activityId);
        putActivityDefinition.setBytes(2, merged(null, definition));
        putActivityDefinition.executeUpdate();
        definitions.remove(activityId);
    }

    /** Replaces one name seen with an agent by another (an erasure took a person's address out of it). */
    void renameAgent(Connection c, String agentKey, String name, String renamed) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement(db.sql("delete_agent_name"))) {
            delete.setString(1, agentKey);
            delete.setString(2, name);
            delete.executeUpdate();
        }
        addAgentName(agentKey, renamed);
    }

    /** Records that statement {@code id}'s own request carried the content of {@code sha2}. */
    void carried(UUID id, String sha2) throws SQLException {
        putStatementAttachment.setString(1, id.toString());
        putStatementAttachment.setString(2, sha2);
        putStatementAttachment.executeUpdate();
    }

    /** Stores an attachment's content under its SHA-2; content already stored under that hash is kept. */
    void putAttachment(String sha2, String contentType, byte[] content) throws SQLException {
        putAttachment.setString(1, sha2);
        putAttachment.setString(2, contentType);
        putAttachment.setBytes(3, content);
        putAttachment.executeUpdate();
    }

    /** Forgets the definitions read or written (the transaction was rolled back, or the projection dropped). */
    void forget() {
        definitions.clear();
    }
}
