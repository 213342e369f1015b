package dev.cairn.ops;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/** Files to import, a run of {@code cairn import} with its output captured, and what an LRS then serves. */
final class ImportTestSupport {
    private ImportTestSupport() {
    }

    /** What a command printed and returned. */
    record Run(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- out:\n" + out + "\n--- err:\n" + err;
        }
    }

    static Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    static Path write(Path file, String content) throws IOException {
        Files.writeString(file, content);
        return file;
    }

    static Path writeGzip(Path file, String content) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    static String ndjson(List<String> statements) {
        return String.join("\n", statements) + "\n";
    }

    static String array(List<String> statements) {
        return "[\n  " + String.join(",\n  ", statements) + "\n]\n";
    }

    /** Every statement the LRS serves (following more links), oldest first. */
    static List<JsonNode> allStatements(TestLrs lrs) throws Exception {
        return statements(lrs, "ascending=true&limit=1000");
    }

    /** Every statement GET /statements returns for {@code query} (its query string), following more links. */
    static List<JsonNode> statements(TestLrs lrs, String query) throws Exception {
        List<JsonNode> all = new ArrayList<>();
        String next = "/xapi/statements?" + query;
        while (next != null && !next.isEmpty()) {
            JsonNode page = TestLrs.json(lrs.get(next));
            page.get("statements").forEach(all::add);
            next = page.path("more").asText("");
        }
        return all;
    }

    /** Each line of an NDJSON text as JSON. */
    static List<JsonNode> ndjsonLines(String ndjson) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : ndjson.split("\n")) {
            out.add(TestLrs.JSON.readTree(line));
        }
        return out;
    }

    /** Posts {@code n} statements of 3 learners, 2 verbs and 4 activities, each answered 200. */
    static void postLearnerStatements(TestLrs lrs, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            org.junit.jupiter.api.Assertions.assertEquals(200, lrs.post(Statements.statement("learner" + (i % 3)
                    + "@example.com", i % 2 == 0 ? Statements.COMPLETED : Statements.ATTEMPTED,
                    "http://example.com/course/" + (i % 4))).statusCode());
        }
    }

    /**
     * Every statement the LRS serves once it serves {@code expected} of them: a Cairn just started projects the
     * log in the background, so the count grows to what the log holds.
     */
    static List<JsonNode> awaitStatements(TestLrs lrs, int expected) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        List<JsonNode> all = allStatements(lrs);
        while (all.size() < expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
            all = allStatements(lrs);
        }
        return all;
    }

    static Set<String> ids(List<JsonNode> statements) {
        Set<String> ids = new HashSet<>();
        for (JsonNode s : statements) {
            ids.add(s.get("id").asText());
        }
        return ids;
    }
}
