package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The projector's PostgreSQL connection compresses large values with lz4, which costs the server less than pglz. */
class PostgresCompressionTest {
    @TempDir
    Path dir;

    @Test
    void theWriterStoresLargeValuesWithLz4() throws Exception {
        try (TestDatabase t = TestDatabase.create("postgresql", dir); Database db = Database.open(t.url());
             Connection c = db.newWriter(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("CREATE TEMPORARY TABLE big (v bytea)");
            s.execute("INSERT INTO big VALUES (convert_to(repeat('statement ', 1000), 'UTF8'))");
            try (ResultSet rs = s.executeQuery("SELECT pg_column_compression(v) FROM big")) {
                rs.next();
                assertEquals("lz4", rs.getString(1));
            }
        }
    }
}
