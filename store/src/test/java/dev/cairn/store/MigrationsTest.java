package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.FilterKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A database made by an older Cairn is brought to the newest schema when it is opened, keeping what it holds. */
class MigrationsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aVersion3DatabaseLosesTheStoredIdsFormAndKeepsItsStatements(String dialect) throws Exception {
        UUID id = UUID.randomUUID();
        byte[] json = ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8);
        try (TestDatabase t = TestDatabase.create(dialect, dir)) {
            try (Connection c = DriverManager.getConnection(t.url()); Statement s = c.createStatement()) {
                migrateTo(3, t.url(), s);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO statement (seq, id, stored_ms, json, keys,"
                        + " ids) VALUES (1, ?, 7, ?, ?, ?)")) {
                    ps.setString(1, id.toString());
                    ps.setBytes(2, json);
                    ps.setBytes(3, new byte[0]);
                    ps.setBytes(4, "{\"ids\":1}".getBytes(StandardCharsets.UTF_8));
                    ps.executeUpdate();
                }
            }

            try (Database db = Database.open(t.url()); Connection c = DriverManager.getConnection(t.url())) {
                assertArrayEquals(json, new StatementReader(db).byId(id).orElseThrow().json());
                assertEquals(7, new StatementReader(db).byId(id).orElseThrow().storedMillis());
                try (ResultSet rs = c.getMetaData().getColumns(null, null, "statement", null)) {
                    boolean any = false;
                    while (rs.next()) {
                        any = true;
                        assertFalse(rs.getString("COLUMN_NAME").equalsIgnoreCase("ids"), "the ids column is dropped");
                    }
                    assertTrue(any, "the statement table's columns are listed");
                }
            }
        }
    }
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aVersion4DatabaseKeepsItsMatchesInRowsOf64ThatQueriesRead(String dialect) throws Exception {
        FilterKey activity = FilterKey.activity("http://example.com/lesson-1");
        long[] seqs = {1, 63, 64};
        try (TestDatabase t = TestDatabase.create(dialect, dir)) {
            try (Connection c = DriverManager.getConnection(t.url()); Statement s = c.createStatement()) {
                migrateTo(4, t.url(), s);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO statement (seq, id, stored_ms, json, keys)"
                        + " VALUES (?, ?, 7, ?, ?)")) {
                    for (long seq : seqs) {
                        ps.setLong(1, seq);
                        ps.setString(2, UUID.randomUUID().toString());
                        ps.setBytes(3, ("{\"seq\":" + seq + "}").getBytes(StandardCharsets.UTF_8));
                        ps.setBytes(4, new byte[0]);
                        ps.executeUpdate();
                    }
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO filter_key (id, kind, value) VALUES (3, ?, ?)")) {
                    ps.setInt(1, activity.kind().ordinal());
                    ps.setString(2, activity.value());
                    ps.executeUpdate();
                }
                // Broadly all three, narrowly seq 1 only.
                s.execute("INSERT INTO statement_match (key_id, scope, seq) VALUES (3, 0, 1), (3, 0, 63), (3, 0, 64),"
                        + " (3, 1, 1)");
            }

            try (Database db = Database.open(t.url()); Connection c = DriverManager.getConnection(t.url());
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery(
                         "SELECT entry, block, bits FROM statement_match ORDER BY entry, block")) {
                List<List<Long>> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
                }
                assertEquals(List.of(List.of(6L, 0L, 1L << 1 | 1L << 63), List.of(6L, 1L, 1L),
                        List.of(7L, 0L, 1L << 1)), rows);
                assertEquals(List.of("{\"seq\":64}", "{\"seq\":63}", "{\"seq\":1}"), page(db, activity, false));
                assertEquals(List.of("{\"seq\":1}"), page(db, activity, true));
            }
        }
    }

    private static List<String> page(Database db, FilterKey key, boolean narrow) {
        StatementQuery q = new StatementQuery(List.of(new KeyFilter(key, narrow)), null, null, 10, false, 0);
        return new StatementReader(db).page(q).statements().stream()
                .map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    /** Creates the schema of {@code version} as that Cairn left it, its schema_version rows included. */
    private static void migrateTo(int version, String url, Statement s) throws SQLException {
        for (Map.Entry<String, String> m : Dialect.of(url).migrations().all().entrySet()) {
            int v = Integer.parseInt(m.getKey());
            if (v > version) {
                break;
            }
            for (String sql : m.getValue().split(";\\s*\n")) {
                s.execute(sql);
            }
        }
        s.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
        for (int v = 1; v <= version; v++) {
            s.execute("INSERT INTO schema_version (version) VALUES (" + v + ")");
        }
    }
}
