package dev.cairn.ops;

import static dev.cairn.ops.ImportTestSupport.allStatements;
import static dev.cairn.ops.ImportTestSupport.awaitStatements;
import static dev.cairn.ops.ImportTestSupport.ids;
import static dev.cairn.ops.ImportTestSupport.postLearnerStatements;
import static dev.cairn.ops.ImportTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forwarding from a running Cairn (on each database) to a second real Cairn, managed with {@code cairn targets}: every
 * statement arrives there with its id and content, in order, and a filter forwards exactly what GET /statements
 * returns for it.
 */
class ForwardingCommandTest extends LrsOnEachDatabase {
    @TempDir
    Path second;

    private ImportTestSupport.Run targets(String... more) {
        List<String> args = new ArrayList<>(List.of("targets"));
        args.addAll(List.of(more));
        args.addAll(List.of("--data", lrs.data.toString(), "--db", database.url()));
        return run(args.toArray(String[]::new));
    }

    @Test
    void everyStatementArrivesAtTheSecondCairnWithItsIdAndContent() throws Exception {
        try (TestLrs target = new TestLrs(second, null)) {
            postLearnerStatements(lrs, 5); // before the target: not forwarded (a target starts at the log's end)
            java.util.Set<String> before = ids(awaitStatements(lrs, 5));
            ImportTestSupport.Run added = targets("add", "second", "--kind", "lrs", "--url", target.base() + "/xapi",
                    "--credential", TestLrs.KEY + ":" + TestLrs.SECRET, "--batch", "7", "--max-delay", "50");
            assertEquals(0, added.exitCode(), added.toString());
            Thread.sleep(1_500); // the running Cairn picks the target up within a second
            postLearnerStatements(lrs, 30);
            List<JsonNode> source = new ArrayList<>(awaitStatements(lrs, 35));
            source.removeIf(s -> before.contains(s.get("id").asText()));
            List<JsonNode> forwarded = awaitStatements(target, 30);
            Thread.sleep(300);
            forwarded = allStatements(target);
            assertEquals(30, source.size());
            assertEquals(ids(source), ids(forwarded), "forwarded " + forwarded.size() + ", of the earlier ones "
                    + forwarded.stream().filter(s -> before.contains(s.get("id").asText())).count());
            for (int i = 0; i < 30; i++) {
                // the same statement: id, actor, verb, object, stored, authority as the first Cairn stored them
                JsonNode a = source.get(i);
                JsonNode b = forwarded.get(i);
                assertEquals(a.get("id"), b.get("id"));
                assertEquals(a.get("actor"), b.get("actor"));
                assertEquals(a.get("verb"), b.get("verb"));
                assertEquals(a.get("object"), b.get("object"));
                assertEquals(a.get("timestamp"), b.get("timestamp"));
            }
            ImportTestSupport.Run list = targets("list");
            assertTrue(list.out().startsWith("second\tlrs\t" + target.base() + "/xapi"), list.toString());
            assertTrue(!list.out().contains(TestLrs.SECRET), "the credential's secret is not listed: " + list.out());
            HttpResponse<String> ready = lrs.get("/health/ready");
            assertTrue(ready.body().contains("\"forwarding\":{\"second\":{\"lagEntries\":"), ready.body());
        }
    }

    @Test
    void attachmentContentsSentWithAStatementArriveWithItAtAnLrs() throws Exception {
        try (TestLrs target = new TestLrs(second, null)) {
            assertEquals(0, targets("add", "second", "--kind", "lrs", "--url", target.base() + "/xapi", "--credential",
                    TestLrs.KEY + ":" + TestLrs.SECRET, "--from", "start", "--max-delay", "20").exitCode());
            byte[] content = "the learner's essay, as an attachment".getBytes(StandardCharsets.UTF_8);
            String id = java.util.UUID.randomUUID().toString();
            byte[] body = AttachmentApiTest.multipart("[" + AttachmentApiTest.statement(id, AttachmentApiTest.attachment(
                    "http://example.com/essay", "text/plain", content, null)) + "]",
                    new Object[] {"text/plain", AttachmentApiTest.sha256(content), content});
            HttpResponse<String> posted = lrs.send(lrs.request("/xapi/statements").header("Content-Type",
                    "multipart/mixed; boundary=" + AttachmentApiTest.BOUNDARY)
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body)));
            assertEquals(200, posted.statusCode(), posted.body());
            awaitStatements(target, 1); // without its content, the target would have refused it (400: dead-lettered)
            HttpResponse<String> got = target.get("/xapi/statements?statementId=" + id + "&attachments=true");
            assertEquals(200, got.statusCode(), got.body());
            assertTrue(got.headers().firstValue("Content-Type").orElse("").startsWith("multipart/mixed"), got.body());
            assertTrue(got.body().contains("the learner's essay, as an attachment"), got.body());
        }
    }

    @Test
    void aFilterForwardsExactlyWhatGetStatementsReturnsForIt() throws Exception {
        try (TestLrs target = new TestLrs(second, null)) {
            String filter = "verb=" + URLEncoder.encode(Statements.COMPLETED, StandardCharsets.UTF_8) + "&activity="
                    + URLEncoder.encode("http://example.com/course/2", StandardCharsets.UTF_8);
            ImportTestSupport.Run added = targets("add", "completed", "--kind", "lrs", "--url", target.base() + "/xapi",
                    "--credential", TestLrs.KEY + ":" + TestLrs.SECRET, "--filter", filter, "--from", "start",
                    "--max-delay", "20");
            assertEquals(0, added.exitCode(), added.toString());
            postLearnerStatements(lrs, 40);
            List<JsonNode> expected = ImportTestSupport.statements(lrs, filter);
            assertTrue(!expected.isEmpty());
            awaitStatements(target, expected.size());
            Thread.sleep(500);
            assertEquals(ids(expected), ids(allStatements(target)));
        }
    }

    @Test
    void pauseResumeAndRemoveTakeEffectInTheRunningProcess() throws Exception {
        try (TestLrs target = new TestLrs(second, null)) {
            assertEquals(0, targets("add", "t", "--kind", "lrs", "--url", target.base() + "/xapi", "--credential",
                    TestLrs.KEY + ":" + TestLrs.SECRET, "--from", "start", "--max-delay", "20", "--paused").exitCode());
            postLearnerStatements(lrs, 6);
            Thread.sleep(1_500);
            assertEquals(0, allStatements(target).size(), "a paused target receives nothing");
            assertEquals(0, targets("resume", "t").exitCode());
            assertEquals(6, awaitStatements(target, 6).size());
            assertEquals(0, targets("remove", "t").exitCode());
            Thread.sleep(1_500);
            postLearnerStatements(lrs, 3);
            Thread.sleep(1_000);
            assertEquals(6, allStatements(target).size(), "a removed target receives nothing more");
            assertEquals(1, targets("remove", "t").exitCode());
        }
    }

    @Test
    void aBadTargetIsRefusedNamingTheField() {
        String credential = TestLrs.KEY + ":" + TestLrs.SECRET;
        String[][] cases = {
            {"field kind", "add", "x", "--kind", "ftp", "--url", "http://127.0.0.1:9/xapi", "--credential", credential},
            {"field url", "add", "x", "--kind", "lrs", "--url", "not a url", "--credential", credential},
            {"field url", "add", "x", "--kind", "lrs", "--url", "file:///etc/passwd", "--credential", credential},
            {"field credential", "add", "x", "--kind", "lrs", "--url", "http://127.0.0.1:9/xapi"},
            {"field filter", "add", "x", "--kind", "lrs", "--url", "http://127.0.0.1:9/xapi", "--credential",
                credential, "--filter", "since=2020-01-01T00:00:00Z"},
            {"field filter", "add", "x", "--kind", "lrs", "--url", "http://127.0.0.1:9/xapi", "--credential",
                credential, "--filter", "agent=notjson"},
            {"field secret", "add", "x", "--kind", "webhook", "--url", "http://127.0.0.1:9/hook", "--secret", "short"},
            {"field batch", "add", "x", "--kind", "webhook", "--url", "http://127.0.0.1:9/hook", "--batch", "0"},
            {"field name", "add", "../x", "--kind", "webhook", "--url", "http://127.0.0.1:9/hook"},
        };
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            ImportTestSupport.Run r = targets(args);
            assertEquals(2, r.exitCode(), String.join(" ", args) + "\n" + r);
            assertTrue(r.err().contains(c[0]), c[0] + " named: " + r.err());
        }
        assertEquals("", targets("list").out());
    }
}
