package dev.cairn.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A SHA-256 of the content of every projected table, row by row in key order: two databases with equal checksums
 * hold the same projection. Used to prove that a replay rebuilds exactly what live projection built.
 */
public final class ProjectionChecksum {

    private ProjectionChecksum() {
    }

    public static Map<String, String> of(Database db) {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = db.reader()) {
            for (String table : Database.PROJECTED_TABLES) {
                out.put(table, table(c, db.sql("checksum_" + table)));
            }
        } catch (SQLException e) {
            throw new StoreException("cannot checksum the projection: " + e.getMessage(), e);
        }
        return out;
    }

    private static String table(Connection c, String sql) throws SQLException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            long rows = 0;
            while (rs.next()) {
                rows++;
                for (int i = 1; i <= columns; i++) {
                    Object v = rs.getObject(i);
                    digest.update(v == null ? new byte[] {0} : v instanceof byte[] b ? b
                            : v.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    digest.update((byte) 0x1f);
                }
                digest.update((byte) 0x1e);
            }
            return rows + ":" + HexFormat.of().formatHex(digest.digest());
        }
    }
}
