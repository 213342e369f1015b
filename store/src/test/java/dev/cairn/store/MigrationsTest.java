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
    void aVersion4DatabaseKeepsItsMatchRowsAsEntriesThatQueriesRead(String dialect) throws Exception {
        UUID id = UUID.randomUUID();
        byte[] json = ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8);
        FilterKey activity = FilterKey.activity("http://example.com/lesson-1");
        try (TestDatabase t = TestDatabase.create(dialect, dir)) {
            try (Connection c = DriverManager.getConnection(t.url()); Statement s = c.createStatement()) {
                migrateTo(4, t.url(), s);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO statement (seq, id, stored_ms, json, keys)"
                        + " VALUES (1, ?, 7, ?, ?)")) {
                    ps.setString(1, id.toString());
                    ps.setBytes(2, json);
                    ps.setBytes(3, new byte[0]);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO filter_key (id, kind, value) VALUES (3, ?, ?)")) {
                    ps.setInt(1, activity.kind().ordinal());
                    ps.setString(2, activity.value());
                    ps.executeUpdate();
                }
                s.execute("INSERT INTO statement_match (key_id, scope, seq) VALUES (3, 0, 1), (3, 1, 1)");
            }

            try (Database db = Database.open(t.url()); Connection c = DriverManager.getConnection(t.url());
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT entry, seq FROM statement_match ORDER BY entry, seq")) {
                assertTrue(rs.next());
                assertEquals(List.of(6L, 1L), List.of(rs.getLong(1), rs.getLong(2)));
                assertTrue(rs.next());
                assertEquals(List.of(7L, 1L), List.of(rs.getLong(1), rs.getLong(2)));
                assertFalse(rs.next());
                for (boolean narrow : new boolean[] {true, false}) {
                    StatementPage page = new StatementReader(db).page(new StatementQuery(
                            List.of(new KeyFilter(activity, narrow)), null, null, 10, false, 0));
                    assertEquals(1, page.statements().size(), narrow ? "narrow" : "broad");
                    assertArrayEquals(json, page.statements().get(0));
                }
            }
        }
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
