package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
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
import java.time.Duration;
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

    /**
     * A process that opens a database at the newest version takes no lock: beside a projector of another process
     * that holds the write lock transaction after transaction, it starts at once instead of failing after the busy
     * timeout (SQLite) or waiting for ever (PostgreSQL's migration lock).
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aDatabaseAtTheNewestVersionOpensWhileAnotherConnectionHoldsTheLock(String dialect) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir)) {
            Database.open(t.url()).close();
            try (Connection holder = DriverManager.getConnection(t.url()); Statement s = holder.createStatement()) {
                Dialect.of(t.url()).beginExclusive(holder, s);
                s.execute("UPDATE watermark SET seq = seq"); // a write: SQLite's write lock is held from here
                assertTimeoutPreemptively(Duration.ofSeconds(5), () -> Database.open(t.url()).close());
                Dialect.of(t.url()).rollbackExclusive(holder, s);
            }
        }
    }

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

    /**
     * S (seq 1) was stored by credential a; R (seq 2), by b, is a StatementRef to S, and V (seq 3), by a, one to R.
     * Version 5 gave R the authority of a, and V that of b, through their targets.
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aVersion5DatabaseForgetsTheAuthoritiesStatementRefsInherited(String dialect) throws Exception {
        UUID s = UUID.randomUUID();
        UUID r = UUID.randomUUID();
        UUID v = UUID.randomUUID();
        String[] authorities = {"a", "b", "a"};
        UUID[] ids = {s, r, v};
        FilterKey a = FilterKey.authority(new dev.cairn.xapi.Agent(null, new dev.cairn.xapi.Ifi(
                dev.cairn.xapi.Ifi.Kind.ACCOUNT, "http://cairn.local/credentials", "a")));
        FilterKey b = new FilterKey(FilterKey.Kind.AUTHORITY, "account:b@http://cairn.local/credentials");
        FilterKey verb = FilterKey.verb("http://example.com/verbs/did");
        try (TestDatabase t = TestDatabase.create(dialect, dir)) {
            try (Connection c = DriverManager.getConnection(t.url()); Statement st = c.createStatement()) {
                migrateTo(5, t.url(), st);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO statement (seq, id, stored_ms, json, keys)"
                        + " VALUES (?, ?, 7, ?, ?)")) {
                    for (int i = 0; i < 3; i++) {
                        ps.setLong(1, i + 1);
                        ps.setString(2, ids[i].toString());
                        ps.setBytes(3, ("{\"id\":\"" + ids[i] + "\",\"authority\":{\"objectType\":\"Agent\",\"account\":"
                                + "{\"homePage\":\"http://cairn.local/credentials\",\"name\":\"" + authorities[i] + "\"}}}")
                                .getBytes(StandardCharsets.UTF_8));
                        ps.setBytes(4, new byte[0]);
                        ps.executeUpdate();
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO filter_key (id, kind, value) VALUES (?, ?, ?)")) {
                    FilterKey[] keys = {a, b, verb};
                    for (int i = 0; i < keys.length; i++) {
                        ps.setLong(1, i + 1);
                        ps.setInt(2, keys[i].kind().ordinal());
                        ps.setString(3, keys[i].value());
                        ps.executeUpdate();
                    }
                }
                st.execute("INSERT INTO statement_ref (referrer_seq, target_id, voiding) VALUES (2, '" + s + "', 0),"
                        + " (3, '" + r + "', 0)");
                // Entries (key id * 2): a's authority matches all three, b's R and V, the verb all three.
                st.execute("INSERT INTO statement_match (entry, block, bits) VALUES (2, 0, 14), (4, 0, 12), (6, 0, 14)");
            }

            try (Database db = Database.open(t.url()); Connection c = DriverManager.getConnection(t.url());
                 Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT entry, block, bits FROM statement_match ORDER BY entry, block")) {
                List<List<Long>> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
                }
                assertEquals(List.of(List.of(2L, 0L, 2L | 8L), List.of(4L, 0L, 4L), List.of(6L, 0L, 14L)), rows);
                assertEquals(List.of(v.toString(), s.toString()), idsOf(db, a));
                assertEquals(List.of(r.toString()), idsOf(db, b));
            }
        }
    }

    /**
     * Version 6 returned, with attachments=true, every stored content a statement's JSON names; version 7 returns the
     * contents each statement's own request carried, and makes those rows for the statements stored before as
     * version 6 read them: contents stored under a hash the statement (or its SubStatement) names, in lowercase.
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aVersion6DatabaseRecordsTheAttachmentsItsStatementsNamedWithStoredContent(String dialect) throws Exception {
        UUID named = UUID.randomUUID();
        UUID sub = UUID.randomUUID();
        UUID none = UUID.randomUUID();
        String stored = "a".repeat(64);
        String missing = "b".repeat(64);
        String[] json = {
            "{\"id\":\"" + named + "\",\"attachments\":[{\"sha2\":\"" + stored.toUpperCase(java.util.Locale.ROOT)
                    + "\"},{\"sha2\":\"" + missing + "\"}]}",
            "{\"id\":\"" + sub + "\",\"object\":{\"objectType\":\"SubStatement\",\"attachments\":[{\"sha2\":\""
                    + stored + "\"}]}}",
            "{\"id\":\"" + none + "\",\"object\":{\"id\":\"http://example.com/attachments\"}}"};
        UUID[] ids = {named, sub, none};
        try (TestDatabase t = TestDatabase.create(dialect, dir)) {
            try (Connection c = DriverManager.getConnection(t.url()); Statement st = c.createStatement()) {
                migrateTo(6, t.url(), st);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO statement (seq, id, stored_ms, json, keys)"
                        + " VALUES (?, ?, 7, ?, ?)")) {
                    for (int i = 0; i < ids.length; i++) {
                        ps.setLong(1, i + 1);
                        ps.setString(2, ids[i].toString());
                        ps.setBytes(3, json[i].getBytes(StandardCharsets.UTF_8));
                        ps.setBytes(4, new byte[0]);
                        ps.executeUpdate();
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO attachment (sha2, content_type, content)"
                        + " VALUES (?, 'text/plain', ?)")) {
                    ps.setString(1, stored);
                    ps.setBytes(2, new byte[] {1});
                    ps.executeUpdate();
                }
            }
            try (Database db = Database.open(t.url())) {
                Map<String, java.util.Set<String>> carried = new StatementReader(db).carriedAttachments(
                        List.of(named.toString(), sub.toString(), none.toString()));
                assertEquals(Map.of(named.toString(), java.util.Set.of(stored), sub.toString(), java.util.Set.of(stored)),
                        carried);
            }
        }
    }

    private static List<String> idsOf(Database db, FilterKey key) throws Exception {
        List<String> out = new ArrayList<>();
        for (String json : page(db, key, false)) {
            out.add(json.substring(7, 43));
        }
        return out;
    }

    private static List<String> page(Database db, FilterKey key, boolean narrow) {
        StatementQuery q = new StatementQuery(List.of(new KeyFilter(key, narrow)), null, null, 10, false, 0);
        return new StatementReader(db).page(q).statements().stream()
                .map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    /**
     * Creates the schema of {@code version} as that Cairn left it, its schema_version rows included, in one
     * transaction as {@link Migrations} runs them (a migration's temporary tables live until its commit).
     */
    private static void migrateTo(int version, String url, Statement s) throws SQLException {
        s.getConnection().setAutoCommit(false);
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
        s.getConnection().commit();
        s.getConnection().setAutoCommit(true);
    }
}
