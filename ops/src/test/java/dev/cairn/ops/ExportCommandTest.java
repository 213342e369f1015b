package dev.cairn.ops;

import static dev.cairn.ops.ImportTestSupport.awaitStatements;
import static dev.cairn.ops.ImportTestSupport.ndjsonLines;
import static dev.cairn.ops.ImportTestSupport.postLearnerStatements;
import static dev.cairn.ops.ImportTestSupport.statements;
import static dev.cairn.ops.ImportTestSupport.run;
import static dev.cairn.ops.Statements.COMPLETED;
import static dev.cairn.ops.Statements.statement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.query.StatementExport;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn export} beside a running Cairn, on each database: it writes exactly what GET /statements returns
 * with the same filters across all its pages, as NDJSON or as CSV.
 */
class ExportCommandTest extends LrsOnEachDatabase {
    @TempDir
    Path dir;

    private ImportTestSupport.Run export(String... more) {
        List<String> args = new ArrayList<>(List.of("export", "--data", lrs.data.toString(), "--db", database.url()));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    /** Every statement GET /statements returns for {@code query}, following more links (small pages, to page). */
    private List<JsonNode> get(String query) throws Exception {
        return statements(lrs, "limit=7" + (query.isEmpty() ? "" : "&" + query));
    }

    private void store(int n) throws Exception {
        postLearnerStatements(lrs, n);
    }

    @Test
    void exportsEveryStatementGetStatementsReturnsAcrossItsPagesNewestFirstWithoutVoidedOnes() throws Exception {
        store(25);
        String voided = UUID.randomUUID().toString();
        assertEquals(204, lrs.put(voided, statement("gone@example.com", COMPLETED, "http://example.com/x")).statusCode());
        assertEquals(200, lrs.post("{\"actor\":{\"mbox\":\"mailto:admin@example.com\"},\"verb\":{\"id\":"
                + "\"http://adlnet.gov/expapi/verbs/voided\"},\"object\":{\"objectType\":\"StatementRef\",\"id\":\""
                + voided + "\"}}").statusCode());
        awaitStatements(lrs, 26);

        ImportTestSupport.Run r = export();
        assertEquals(0, r.exitCode(), r.toString());
        List<JsonNode> exported = ndjsonLines(r.out());
        assertEquals(get(""), exported);
        assertEquals(26, exported.size());
        assertFalse(r.out().contains(voided + "\",\"stored"), "the voided statement is left out");
    }

    @Test
    void filtersAndOrderSelectWhatGetStatementsSelects() throws Exception {
        store(30);
        awaitStatements(lrs, 30);
        String agent = URLEncoder.encode("{\"mbox\":\"mailto:learner1@example.com\"}", StandardCharsets.UTF_8);
        String verb = URLEncoder.encode(COMPLETED, StandardCharsets.UTF_8);
        for (String query : List.of("verb=" + verb, "agent=" + agent + "&ascending=true",
                "activity=" + URLEncoder.encode("http://example.com/course/2", StandardCharsets.UTF_8)
                        + "&verb=" + verb)) {
            ImportTestSupport.Run r = export("--query", query);
            assertEquals(0, r.exitCode(), r.toString());
            List<JsonNode> expected = get(query);
            assertFalse(expected.isEmpty(), query);
            assertEquals(expected, ndjsonLines(r.out()), query);
        }
    }

    @Test
    void aStatementSentWithLineBreaksIsExportedOnOneLine() throws Exception {
        assertEquals(200, lrs.post("{\n  \"actor\": {\"mbox\": \"mailto:a@example.com\"},\r\n  \"verb\": {\"id\": \""
                + COMPLETED + "\"},\n  \"object\": {\"id\": \"http://example.com/a\",\n \"definition\": {\"name\": "
                + "{\"en\": \"two\\nlines\"}}}\n}").statusCode());
        awaitStatements(lrs, 1);
        ImportTestSupport.Run r = export();
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(1, r.out().split("\n").length, r.out());
        assertEquals(get(""), ndjsonLines(r.out()));
    }

    @Test
    void csvHasTheDocumentedColumnsQuotesWhatNeedsItAndDisarmsFormulas() throws Exception {
        assertEquals(200, lrs.post("{\"actor\":{\"name\":\"=HYPERLINK(\\\"http://evil\\\")\",\"mbox\":"
                + "\"mailto:a@example.com\"},\"verb\":{\"id\":\"" + COMPLETED + "\",\"display\":{\"fr\":\"fini\","
                + "\"en-US\":\"completed, \\\"well\\\"\"}},\"object\":{\"id\":\"http://example.com/a\"},\"result\":"
                + "{\"score\":{\"scaled\":-0.5,\"raw\":-5,\"min\":-10,\"max\":10},\"success\":false,\"completion\":true,"
                + "\"duration\":\"PT1M\"},\"context\":{\"registration\":\"6fbd600f-d17c-4c74-801a-2ec2e53231c7\","
                + "\"contextActivities\":{\"parent\":[{\"id\":\"http://example.com/p1\"},{\"id\":\"http://example.com/"
                + "p2\"}]}},\"timestamp\":\"2026-01-02T03:04:05.678Z\"}").statusCode());
        awaitStatements(lrs, 1);
        ImportTestSupport.Run r = export("--format", "csv");
        assertEquals(0, r.exitCode(), r.toString());
        String[] rows = r.out().split("\r\n");
        assertEquals(2, rows.length, r.out());
        assertEquals(String.join(",", StatementExport.COLUMNS), rows[0]);
        JsonNode s = get("").get(0);
        assertEquals(s.get("id").asText() + "," + s.get("stored").asText() + ",2026-01-02T03:04:05.678Z,"
                + "mbox:mailto:a@example.com,\"'=HYPERLINK(\"\"http://evil\"\")\"," + COMPLETED + ","
                + "\"completed, \"\"well\"\"\",Activity,http://example.com/a,-0.5,-5,-10,10,false,true,PT1M,"
                + "6fbd600f-d17c-4c74-801a-2ec2e53231c7,http://example.com/p1 http://example.com/p2,,,", rows[1]);
    }

    @Test
    void writesAFileOnlyOnceTheExportIsWhole() throws Exception {
        store(3);
        awaitStatements(lrs, 3);
        Path file = dir.resolve("out.ndjson");
        ImportTestSupport.Run r = export("--output", file.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(get(""), ndjsonLines(Files.readString(file)));
        assertTrue(r.err().contains("3 statements"), r.toString());
        assertFalse(Files.exists(dir.resolve("out.ndjson.partial")));
    }

    @Test
    void anExportThatCannotBePutInPlaceFailsAndLeavesNoPartialFile() throws Exception {
        store(3);
        awaitStatements(lrs, 3);
        Path taken = Files.createDirectories(dir.resolve("taken")); // a directory with a file: no move replaces it
        Files.writeString(taken.resolve("kept"), "kept");
        ImportTestSupport.Run r = export("--output", taken.toString());
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.err().contains("not whole"), r.toString());
        try (var listing = Files.list(dir)) {
            assertEquals(List.of(taken), listing.filter(p -> !p.equals(lrs.data)).toList(), "no partial file left");
        }
        assertEquals("kept", Files.readString(taken.resolve("kept")));
    }

    @Test
    void anExportToAStandardOutputThatFailsStopsWithExitCode1() throws Exception {
        store(3);
        awaitStatements(lrs, 3);
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream errBefore = System.err;
        int code;
        try {
            System.setOut(new java.io.PrintStream(new java.io.OutputStream() { // a full disk, or a closed pipe
                @Override
                public void write(int b) throws java.io.IOException {
                    throw new java.io.IOException("No space left on device");
                }
            }));
            System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
            code = Main.run("export", "--data", lrs.data.toString(), "--db", database.url());
        } finally {
            System.setOut(out);
            System.setErr(errBefore);
        }
        assertEquals(1, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not whole"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aQueryGetStatementsWouldRefuseOrThatIsNoFilterIsRefusedNamingTheParameter() {
        for (String[] bad : List.of(new String[] {"statementId=" + UUID.randomUUID(), "statementId"},
                new String[] {"limit=10", "limit"}, new String[] {"verb=not%20an%20IRI", "verb"},
                new String[] {"since=yesterday", "since"}, new String[] {"verb=a&verb=b", "verb"},
                new String[] {"Verb=http://example.com/v", "Verb"}, new String[] {"verb=%zz", "%zz"})) {
            ImportTestSupport.Run r = export("--query", bad[0]);
            assertEquals(2, r.exitCode(), r.toString());
            assertTrue(r.err().contains(bad[1]), r.toString());
            assertEquals("", r.out(), r.toString());
        }
    }
}
