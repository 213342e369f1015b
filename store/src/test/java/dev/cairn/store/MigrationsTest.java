package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
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
                for (Map.Entry<String, String> m : Dialect.of(t.url()).migrations().all().entrySet()) {
                    if (Integer.parseInt(m.getKey()) > 3) {
                        break;
                    }
                    for (String sql : m.getValue().split(";\\s*\n")) {
                        s.execute(sql);
                    }
                }
                s.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
                s.execute("INSERT INTO schema_version (version) VALUES (1), (2), (3)");
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
}
