package dev.cairn.ops;

import static dev.cairn.ops.ImportTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to {@code cairn import} itself: a clear message and a non-zero exit, before anything is read. */
class ImportOptionsTest {
    @TempDir
    Path dir;

    @Test
    void anUnknownFlagIsRefused() {
        ImportTestSupport.Run r = run("import", "--no-such-flag", "x.json");
        assertEquals(2, r.exitCode(), r.toString());
        assertTrue(r.err().contains("Unknown option: '--no-such-flag'"), r.toString());
    }

    @Test
    void aMissingFileIsNamed() throws Exception {
        Path missing = dir.resolve("missing.ndjson");
        ImportTestSupport.Run r = run("import", "--data", dir.toString(), missing.toString());
        assertEquals(2, r.exitCode(), r.toString());
        assertTrue(r.err().contains("cairn import: no such file: " + missing), r.toString());
    }

    @Test
    void nothingToImportIsRefused() {
        ImportTestSupport.Run r = run("import", "--data", dir.toString());
        assertEquals(2, r.exitCode(), r.toString());
        assertTrue(r.err().contains("name the FILEs to import, or another LRS with --from URL"), r.toString());
    }

    @Test
    void aLogPathThatIsNotADirectoryIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("s.ndjson"), "");
        Path log = Files.writeString(dir.resolve("log"), "not a directory");
        ImportTestSupport.Run r = run("import", "--data", dir.toString(), "--log", log.toString(), file.toString());
        assertEquals(2, r.exitCode(), r.toString());
        assertTrue(r.err().contains("the log path " + log + " is not a directory"), r.toString());
    }

    @Test
    void aMissingLogOrDatabaseIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("s.ndjson"), "");
        ImportTestSupport.Run noLog = run("import", "--data", dir.resolve("nowhere").toString(), file.toString());
        assertEquals(2, noLog.exitCode(), noLog.toString());
        assertTrue(noLog.err().contains("there is no log directory at " + dir.resolve("nowhere").resolve("log")),
                noLog.toString());

        Files.createDirectories(dir.resolve("log"));
        ImportTestSupport.Run noDb = run("import", "--data", dir.toString(), file.toString());
        assertEquals(2, noDb.exitCode(), noDb.toString());
        assertTrue(noDb.err().contains("there is no database at " + dir.resolve("cairn.db")), noDb.toString());
    }

    @Test
    void badOptionValuesAreNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("s.ndjson"), "");
        assertTrue(run("import", "--batch", "0", file.toString()).err().contains("--batch=0 must be between 1 and 10000"));
        assertTrue(run("import", "--xapi-version", "3.0", file.toString()).err()
                .contains("xapi-version=3.0 must be"));
        assertTrue(run("import", "--from", "http://127.0.0.1:1/xapi").err()
                .contains("--from needs --credential KEY:SECRET"));
        assertTrue(run("import", "--from", "ftp://x/xapi", "--credential", "a:b").err()
                .contains("must be an http or https URL"));
    }
}
