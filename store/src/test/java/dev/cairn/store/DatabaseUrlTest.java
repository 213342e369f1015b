package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A JDBC URL is read once: its dialect, its SQLite file, and a form fit for logs. */
class DatabaseUrlTest {
    @Test
    void aSqliteUrlNamesItsFileWithoutParametersOrTheFilePrefix() {
        assertEquals(Optional.of(Path.of("/var/lib/cairn/cairn.db")),
                DatabaseUrl.parse("jdbc:sqlite:file:/var/lib/cairn/cairn.db?journal_mode=WAL").sqliteFile());
        assertEquals(Optional.empty(), DatabaseUrl.parse("jdbc:sqlite::memory:").sqliteFile());
        assertEquals(Optional.empty(), DatabaseUrl.parse("jdbc:postgresql://db/cairn").sqliteFile());
    }

    @Test
    void anUnknownDatabaseIsRefusedWithTheUrlsThatAreUnderstood() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DatabaseUrl.parse("jdbc:mysql://db/cairn"));
        assertTrue(e.getMessage().contains("jdbc:sqlite:PATH or jdbc:postgresql://"), e.getMessage());
    }

    @Test
    void aPasswordNeverReachesALogLine() {
        DatabaseUrl url = DatabaseUrl.parse("jdbc:postgresql://db:5432/cairn?user=cairn&password=s3cret&ssl=true");
        assertEquals("jdbc:postgresql://db:5432/cairn?user=cairn&password=***&ssl=true", url.toString());
        assertEquals(Dialect.POSTGRESQL, url.dialect());
        assertTrue(url.jdbc().contains("s3cret"));
    }
}
