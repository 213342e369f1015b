package dev.cairn.ops;

import static dev.cairn.ops.ImportTestSupport.allStatements;
import static dev.cairn.ops.ImportTestSupport.array;
import static dev.cairn.ops.ImportTestSupport.awaitStatements;
import static dev.cairn.ops.ImportTestSupport.ids;
import static dev.cairn.ops.ImportTestSupport.ndjson;
import static dev.cairn.ops.ImportTestSupport.run;
import static dev.cairn.ops.ImportTestSupport.write;
import static dev.cairn.ops.ImportTestSupport.writeGzip;
import static dev.cairn.ops.Statements.ATTEMPTED;
import static dev.cairn.ops.Statements.COMPLETED;
import static dev.cairn.ops.Statements.statement;
import static dev.cairn.ops.Statements.withId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.store.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code cairn import} end to end, on each database: real files in a temporary directory, imported with
 * {@link Main#run}, then checked through a Cairn started on the same data.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class ImportCommandTest {
    static final String CREDENTIAL = TestLrs.KEY + ":" + TestLrs.SECRET;

    @Parameter
    String dialect;
    @TempDir
    Path dir;
    Path data;
    TestDatabase database;

    @BeforeEach
    void createLrs() throws Exception {
        data = Files.createDirectories(dir.resolve("data"));
        database = TestDatabase.create(dialect, dir);
        new TestLrs(data, database.url()).close(); // creates the database, the log and the credential, as serve does
    }

    @AfterEach
    void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }

    private ImportTestSupport.Run importFiles(Path... files) {
        List<String> args = new ArrayList<>(List.of("import", "--data", data.toString(), "--db", database.url(),
                "--credential", CREDENTIAL, "--batch", "3"));
        for (Path f : files) {
            args.add(f.toString());
        }
        return run(args.toArray(String[]::new));
    }

    private static List<String> statements(String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(i % 2 == 0 ? withId(UUID.randomUUID().toString(), prefix + i + "@example.com", COMPLETED,
                    "http://example.com/" + prefix + "/" + i)
                    : statement(prefix + i + "@example.com", ATTEMPTED, "http://example.com/" + prefix + "/" + i));
        }
        return out;
    }

    @Test
    void importsJsonArraysNdjsonAndGzipWithTheCredentialsAuthority() throws Exception {
        Path array = write(dir.resolve("a.json"), array(statements("a", 5)));
        Path ndjson = write(dir.resolve("b.ndjson"), ndjson(statements("b", 4)));
        Path gzip = ImportTestSupport.writeGzip(dir.resolve("c.ndjson.gz"), ndjson(statements("c", 7)));
        Path gzipArray = writeGzip(dir.resolve("d.data"), array(statements("d", 2)));

        ImportTestSupport.Run r = importFiles(array, ndjson, gzip, gzipArray);
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.out().contains("18 read, 18 imported, 0 already present, 0 rejected"), r.toString());

        try (TestLrs lrs = new TestLrs(data, database.url())) {
            List<JsonNode> stored = awaitStatements(lrs, 18);
            assertEquals(18, stored.size());
            assertEquals(18, ids(stored).size());
            for (JsonNode s : stored) {
                assertEquals(TestLrs.KEY, s.get("authority").get("account").get("name").asText());
                assertEquals("2.0.0", s.get("version").asText());
            }
        }
    }

    @Test
    void anImportThatIsTheSequencerReportsItsLogSyncsWhateverTheListenAddress() throws Exception {
        Path file = write(dir.resolve("s.ndjson"), ndjson(statements("s", 3)));
        // An address that makes no URL of an ingest is no matter when the import appends to the log itself.
        ImportTestSupport.Run r = run("import", "--data", data.toString(), "--db", database.url(), "--credential",
                CREDENTIAL, "--host", "::", file.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.out().matches("(?s).*\\nlog: [1-9][0-9,]* syncs?, [0-9.]+ ms each on average\\n.*"), r.toString());
    }

    @Test
    void rejectedStatementsAreReportedWithTheirReasonsAndTheRestImported() throws Exception {
        List<String> lines = new ArrayList<>(statements("r", 6));
        lines.set(1, "{\"actor\":{\"mbox\":\"mailto:x@example.com\"},\"object\":{\"id\":\"http://example.com/x\"}}");
        lines.set(4, statement("bad@example.com", COMPLETED, "not an IRI"));
        Path file = write(dir.resolve("mixed.ndjson"), ndjson(lines));

        ImportTestSupport.Run r = importFiles(file);
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.err().contains("rejected: " + file + " line 2, $.verb: "), r.toString());
        assertTrue(r.err().contains("rejected: " + file + " line 5, $.object.id: "), r.toString());
        assertTrue(r.err().contains("2 statements were rejected"), r.toString());
        assertTrue(r.out().contains("6 read, 4 imported, 0 already present, 2 rejected"), r.toString());
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(4, awaitStatements(lrs, 4).size());
        }
    }

    @Test
    void runningTheSameImportAgainStoresNoDuplicates() throws Exception {
        Path file = write(dir.resolve("again.json"), array(statements("g", 8)));
        assertEquals(0, importFiles(file).exitCode());
        ImportTestSupport.Run second = importFiles(file);
        assertEquals(0, second.exitCode(), second.toString());
        assertTrue(second.out().contains("8 read, 0 imported, 8 already present, 0 rejected"), second.toString());

        // A different statement under an id already stored is a conflict, reported like any rejection.
        String stolenId;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            List<JsonNode> stored = awaitStatements(lrs, 8);
            assertEquals(8, stored.size());
            stolenId = stored.get(3).get("id").asText();
        }
        Path conflicting = write(dir.resolve("conflict.ndjson"), ndjson(List.of(
                withId(stolenId, "someone-else@example.com", COMPLETED, "http://example.com/other"),
                statement("new@example.com", COMPLETED, "http://example.com/new"))));
        ImportTestSupport.Run third = importFiles(conflicting);
        assertEquals(1, third.exitCode(), third.toString());
        assertTrue(third.err().contains("line 1, $.id: statement " + stolenId + " is already stored"), third.toString());
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(9, awaitStatements(lrs, 9).size());
        }
    }

    @Test
    void aCorruptFileImportsNothingOfItself() throws Exception {
        List<String> good = statements("k", 4);
        Path malformed = write(dir.resolve("malformed.ndjson"), ndjson(good) + "{\"actor\": {\"mbox\": }\n");
        byte[] gz = Files.readAllBytes(writeGzip(dir.resolve("full.gz"), ndjson(statements("t", 50))));
        Path truncated = Files.write(dir.resolve("truncated.ndjson.gz"), Arrays.copyOf(gz, gz.length / 2));
        Path scalar = write(dir.resolve("scalar.json"), "[" + good.get(0) + ", 42]");
        Path text = write(dir.resolve("notes.txt"), "these are not statements\n");
        Path fine = write(dir.resolve("fine.ndjson"), ndjson(statements("f", 3)));

        ImportTestSupport.Run r = importFiles(malformed, truncated, scalar, text, fine);
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.out().contains("corrupt: " + malformed + " line 5, column 20: malformed JSON"), r.toString());
        assertTrue(r.out().contains("corrupt: " + truncated + ": the gzip stream is truncated"), r.toString());
        assertTrue(r.out().contains("corrupt: " + scalar + " statement 2 (line 1, column"), r.toString());
        assertTrue(r.out().contains("found a number"), r.toString());
        assertTrue(r.out().contains("corrupt: " + text + " line 1, column"), r.toString());
        assertTrue(r.err().contains("4 files were not imported"), r.toString());
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(3, awaitStatements(lrs, 3).size()); // only fine.ndjson
        }
    }

    @Test
    void whileAnIngestRunsTheImportGoesThroughIt() throws Exception {
        List<String> lines = statements("h", 7);
        lines.add(statement("bad@example.com", COMPLETED, "not an IRI"));
        Path file = write(dir.resolve("through.ndjson"), ndjson(lines));
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            ImportTestSupport.Run r = run("import", "--data", data.toString(), "--db", database.url(),
                    "--target", lrs.base() + "/xapi", "--credential", CREDENTIAL, "--batch", "3", file.toString());
            assertEquals(1, r.exitCode(), r.toString());
            assertTrue(r.out().contains("through the running ingest at " + lrs.base() + "/xapi/statements"), r.toString());
            assertTrue(r.out().contains("8 read, 7 imported, 0 already present, 1 rejected"), r.toString());
            assertEquals(7, awaitStatements(lrs, 7).size());

            ImportTestSupport.Run again = run("import", "--data", data.toString(), "--db", database.url(),
                    "--target", lrs.base() + "/xapi", "--credential", CREDENTIAL, file.toString());
            assertEquals(1, again.exitCode(), again.toString());
            assertEquals(7, awaitStatements(lrs, 7).size());

            ImportTestSupport.Run wrongSecret = run("import", "--data", data.toString(), "--db", database.url(),
                    "--target", lrs.base() + "/xapi", "--credential", TestLrs.KEY + ":wrong", file.toString());
            assertEquals(1, wrongSecret.exitCode(), wrongSecret.toString());
            assertTrue(wrongSecret.err().contains("answered 401"), wrongSecret.toString());
        }
    }

    @Test
    void fromAnotherRunningCairnFollowingItsMoreLinks() throws Exception {
        Path sourceData = Files.createDirectories(dir.resolve("source"));
        try (TestDatabase sourceDb = TestDatabase.create(dialect, dir);
             TestLrs source = new TestLrs(sourceData, sourceDb.url())) {
            for (int i = 0; i < 5; i++) {
                assertEquals(200, source.post(array(statements("s" + i, 5))).statusCode());
            }
            Set<String> sourceIds = ids(allStatements(source));
            assertEquals(25, sourceIds.size());

            ImportTestSupport.Run r = run("import", "--data", data.toString(), "--db", database.url(),
                    "--from", source.base() + "/xapi", "--credential", CREDENTIAL, "--target-credential", CREDENTIAL,
                    "--page-size", "7");
            assertEquals(0, r.exitCode(), r.toString());
            assertTrue(r.out().contains("25 read, 25 imported, 0 already present, 0 rejected"), r.toString());

            ImportTestSupport.Run again = run("import", "--data", data.toString(), "--db", database.url(),
                    "--from", source.base() + "/xapi", "--credential", CREDENTIAL, "--target-credential", CREDENTIAL);
            assertTrue(again.out().contains("25 read, 0 imported, 25 already present, 0 rejected"), again.toString());

            try (TestLrs target = new TestLrs(data, database.url())) {
                List<JsonNode> imported = awaitStatements(target, 25);
                assertEquals(sourceIds, ids(imported));
            }
        }
    }
}
