package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Credentials in the database. They are not derived from the log, so replay leaves them alone. */
public final class CredentialStore {
    private final Database db;

    public CredentialStore(Database db) {
        this.db = db;
    }

    /** Stores a new credential; false when one with that key exists (another process may have just made it). */
    public boolean insert(Credential c) {
        try (Connection conn = db.reader(); PreparedStatement ps = conn.prepareStatement(db.sql("insert_credential"))) {
            ps.setString(1, c.key());
            ps.setBytes(2, c.salt());
            ps.setBytes(3, c.hash());
            ps.setInt(4, c.iterations());
            ps.setString(5, String.join(" ", c.scopes()));
            ps.setBytes(6, c.authority());
            ps.setLong(7, System.currentTimeMillis());
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreException("cannot store credential " + c.key() + ": " + e.getMessage(), e);
        }
    }

    public Optional<Credential> find(String key) {
        try (Connection conn = db.reader(); PreparedStatement ps = conn.prepareStatement(db.sql("credential_by_key"))) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Credential(key, rs.getBytes(1), rs.getBytes(2), rs.getInt(3),
                        scopes(rs.getString(4)), rs.getBytes(5)));
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read credential " + key + ": " + e.getMessage(), e);
        }
    }

    /** Every credential (without its hash), oldest first. */
    public List<Credential> list() {
        try (Connection conn = db.reader(); PreparedStatement ps = conn.prepareStatement(db.sql("list_credentials"));
             ResultSet rs = ps.executeQuery()) {
            List<Credential> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new Credential(rs.getString(1), new byte[0], new byte[0], 0, scopes(rs.getString(2)),
                        rs.getBytes(3)));
            }
            return out;
        } catch (SQLException e) {
            throw new StoreException("cannot list credentials: " + e.getMessage(), e);
        }
    }

    /** Removes a credential; false when there was none with that key. */
    public boolean delete(String key) {
        try (Connection conn = db.reader(); PreparedStatement ps = conn.prepareStatement(db.sql("delete_credential"))) {
            ps.setString(1, key);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreException("cannot revoke credential " + key + ": " + e.getMessage(), e);
        }
    }

    /** The scopes as stored (space-separated), in the order they were granted. */
    private static Set<String> scopes(String stored) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(stored.split(" "))));
    }

    public long count() {
        try (Connection conn = db.reader(); PreparedStatement ps = conn.prepareStatement(db.sql("count_credentials"));
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new StoreException("cannot count credentials: " + e.getMessage(), e);
        }
    }
}
