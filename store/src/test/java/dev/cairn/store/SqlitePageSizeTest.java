package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite database Cairn creates has 8 KB pages, so that three statement rows share a page; its writer keeps statement
 * journals in memory, so that a large statement (a merge of statement_match_recent) writes no temporary file.
 */
class SqlitePageSizeTest {
    @TempDir
    Path dir;

    @Test
    void aNewDatabaseHas8KbPages() throws Exception {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db"));
             Connection c = db.reader(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA page_size")) {
            rs.next();
            assertEquals(8192, rs.getInt(1));
        }
    }

    @Test
    void theWriterKeepsTemporaryDataInMemory() throws Exception {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db"));
             Connection c = db.newWriter(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA temp_store")) {
            rs.next();
            assertEquals(2, rs.getInt(1)); // MEMORY
        }
    }
}
