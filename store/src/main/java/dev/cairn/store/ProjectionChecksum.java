package dev.cairn.store;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A SHA-256 of the content of every projected table, row by row in key order: two databases with equal checksums
 * hold the same projection. Used to prove that a replay rebuilds exactly what live projection built.
 *
 * <p>Filter keys are compared by what they are (kind and value), not by their ids: a replay numbers keys in the order
 * it meets them, so a projection that took statements out (an erasure) holds the same keys under other ids, and keeps
 * rows of keys no statement uses any more, which answer every query as a missing key does. So a statement's keys
 * blob and a match row's entry are read as the keys they name, match rows (whose order follows the ids) are summed
 * as a multiset, and filter_key is the sorted set of the keys some statement uses.
 */
public final class ProjectionChecksum {
    private static final String KEYS = "filter_key";
    private static final String MATCHES = "statement_match";
    private static final String STATEMENTS = "statement";

    private ProjectionChecksum() {
    }

    public static Map<String, String> of(Database db) {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = db.reader()) {
            Map<Long, String> keys = keys(c, db);
            Set<Long> used = new HashSet<>();
            for (String table : Database.PROJECTED_TABLES) {
                String sql = db.sql("checksum_" + table);
                out.put(table, switch (table) {
                    case KEYS -> null; // once every statement has said which keys it uses
                    case STATEMENTS -> table(c, sql, (column, v) -> column.equals("keys") && v instanceof byte[] b
                            ? named(MatchKeys.fromBytes(b), keys, used) : v);
                    case MATCHES -> matches(c, sql, keys);
                    default -> table(c, sql, (column, v) -> v);
                });
            }
            List<String> usedKeys = new ArrayList<>(new TreeSet<>(used.stream().map(id -> key(keys, id)).toList()));
            out.put(KEYS, usedKeys.size() + ":" + hex(digest(String.join("\u001e", usedKeys))));
        } catch (SQLException e) {
            throw new StoreException("cannot checksum the projection: " + e.getMessage(), e);
        }
        return out;
    }

    /** Every filter key by id, as its kind and value. */
    private static Map<Long, String> keys(Connection c, Database db) throws SQLException {
        Map<Long, String> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(db.sql("checksum_filter_key")); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getInt(2) + ":" + rs.getString(3));
            }
        }
        return out;
    }

    /** What key {@code id} is; a key missing from filter_key shows as such, with its id. */
    private static String key(Map<Long, String> keys, long id) {
        String key = keys.get(id);
        return key != null ? key : "missing:" + id;
    }

    /** The keys of a keys blob, sorted by what they are, each with its scope; the ids are added to {@code used}. */
    private static String named(MatchKeys entries, Map<Long, String> keys, Set<Long> used) {
        TreeSet<String> out = new TreeSet<>();
        for (int i = 0; i < entries.size(); i++) {
            long id = MatchKeys.keyId(entries.get(i));
            used.add(id);
            out.add(key(keys, id) + "/" + (entries.get(i) & 1));
        }
        return String.join("\u001f", out);
    }

    /** A column's value as the checksum reads it. */
    private interface Column {
        Object read(String column, Object value);
    }

    private static String table(Connection c, String sql, Column column) throws SQLException {
        MessageDigest digest = sha256();
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            String[] labels = new String[rs.getMetaData().getColumnCount()];
            for (int i = 0; i < labels.length; i++) {
                labels[i] = rs.getMetaData().getColumnLabel(i + 1).toLowerCase(Locale.ROOT);
            }
            long rows = 0;
            while (rs.next()) {
                rows++;
                for (int i = 0; i < labels.length; i++) {
                    update(digest, column.read(labels[i], rs.getObject(i + 1)));
                }
                digest.update((byte) 0x1e);
            }
            return rows + ":" + hex(digest.digest());
        }
    }

    /** The match rows (entry, block, bits) with each entry read as its key and scope: a sum of the rows' hashes. */
    private static String matches(Connection c, String sql, Map<Long, String> keys) throws SQLException {
        BigInteger sum = BigInteger.ZERO;
        long rows = 0;
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows++;
                long entry = rs.getLong(1);
                byte[] row = digest(key(keys, MatchKeys.keyId(entry)) + "/" + (entry & 1) + "\u001f" + rs.getLong(2)
                        + "\u001f" + rs.getLong(3));
                sum = sum.add(new BigInteger(1, row));
            }
        }
        byte[] bytes = sum.mod(BigInteger.ONE.shiftLeft(256)).toByteArray();
        return rows + ":" + hex(bytes);
    }

    private static void update(MessageDigest digest, Object v) {
        digest.update(v == null ? new byte[] {0} : v instanceof byte[] b ? b
                : v.toString().getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0x1f);
    }

    private static byte[] digest(String s) {
        return sha256().digest(s.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
