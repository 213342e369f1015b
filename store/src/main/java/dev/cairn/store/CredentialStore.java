package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

/** Credentials in the database. They are not derived from the log, so replay leaves them alone. */
public final class CredentialStore {
    private final Database db;

    public CredentialStore(Database db) {
        this.db = db;
    }

    public void insert(Credential c) {
        try (Connection conn = db.reader(); PreparedStatement ps = conn.prepareStatement(db.sql("insert_credential"))) {
            ps.setString(1, c.key());
            ps.setBytes(2, c.salt());
            ps.setBytes(3, c.hash());
            ps.setInt(4, c.iterations());
            ps.setString(5, String.join(" ", c.scopes()));
            ps.setBytes(6, c.authority());
            ps.setLong(7, System.currentTimeMillis());
            ps.executeUpdate();
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
                        Set.of(rs.getString(4).split(" ")), rs.getBytes(5)));
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read credential " + key + ": " + e.getMessage(), e);
        }
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
