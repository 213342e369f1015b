package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite database Cairn creates has 8 KB pages, so that three statement rows share a page; the projector's connection
 * keeps statement journals in memory, so that a large statement (a merge of statement_match_recent) writes no
 * temporary file.
 */
class SqlitePageSizeTest {
    @TempDir
    Path dir;

    @Test
    void aNewDatabaseHas8KbPages() throws Exception {
        assertEquals(8192, pragma("page_size", false));
    }

    @Test
    void theProjectorsConnectionKeepsTemporaryDataInMemory() throws Exception {
        assertEquals(2, pragma("temp_store", true)); // 2: MEMORY
    }

    /** An erasure must leave the bytes of what it deletes in no page, and ordinary writes no stale copies for it to miss. */
    @Test
    void everyConnectionOverwritesWhatItDeletes() throws Exception {
        assertEquals(1, pragma("secure_delete", true));
        assertEquals(1, pragma("secure_delete", false));
    }

    /** The value of a pragma on a new database, read on a reader connection or on the writer's. */
    private int pragma(String name, boolean writer) throws Exception {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db"));
             Connection c = writer ? db.newWriter() : db.reader(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA " + name)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
