package dev.cairn.ops;

import static dev.cairn.ops.ErasureScene.ADA;
import static dev.cairn.ops.ErasureScene.ADA_AGENT;
import static dev.cairn.ops.ErasureScene.anyFileHolds;
import static dev.cairn.ops.ErasureScene.anyRowHolds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.erase.PendingErasure;
import dev.cairn.store.ErasureRequests;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * POST /admin/erasures: a person erased from a running Cairn, on each database, while it goes on serving reads and
 * writes: gone from the answers once the request is answered, from the log's files and the database, what others
 * wrote kept, and a replay of the rewritten log gives the tables the erasure left. Bad requests change nothing.
 */
class AdminErasureApiTest extends LrsOnEachDatabase {
    private static final String ADMIN = TestLrs.basic(TestLrs.KEY, TestLrs.SECRET);
    private static final String ERASE_ADA = "{\"agents\":[" + ADA_AGENT + "]}";
    /** Per database: with EraseCommandTest's ten kills of 'cairn erase' per database, the ten trials and more. */
    private static final int KILL_TRIALS = 6;

    private final ErasureScene scene = new ErasureScene();

    private HttpResponse<String> call(String method, String body, String authorization) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(lrs.base() + "/admin/erasures"))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            r.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        return lrs.http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void refused(HttpResponse<String> r, int status, String error, String where) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode json = TestLrs.json(r);
        assertTrue(json.hasNonNull("error") && json.hasNonNull("message"), r.body());
        if (error != null) {
            assertEquals(error, json.get("error").asText(), r.body());
        }
        if (where != null) {
            assertEquals(where, json.get("where").asText(), r.body());
        }
    }

    @Test
    void aPersonIsErasedFromARunningCairnAndAReplayGivesTheSameTables() throws Exception {
        scene.play(lrs);
        JsonNode dry = TestLrs.json(call("POST", "{\"agents\":[" + ADA_AGENT + "],\"dryRun\":true}", ADMIN));
        assertTrue(dry.get("dryRun").asBoolean(), dry.toString());
        assertEquals(3, dry.get("statementsRemoved").asInt(), dry.toString());
        assertEquals(200, lrs.get("/xapi/statements?statementId=" + scene.ids.get("ada's")).statusCode(),
                "a dry run changes nothing");

        HttpResponse<String> r = call("POST", ERASE_ADA, ADMIN);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode done = TestLrs.json(r);
        assertFalse(done.get("dryRun").asBoolean());
        assertEquals(3, done.get("statementsRemoved").asInt(), r.body());
        assertEquals(4, done.get("statementsRewritten").asInt(), r.body());
        assertEquals(1, done.get("documentEntries").asInt(), r.body());
        for (String role : List.of("ada's", "ada's essay", "ada with dave")) {
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + scene.ids.get(role)).statusCode(), role);
        }
        JsonNode about = TestLrs.json(lrs.get("/xapi/statements?statementId=" + scene.ids.get("about ada")));
        assertEquals("urn:cairn:erased:" + done.get("erasure").asText(), about.path("object").path("openid").asText(),
                about.toString());
        for (String role : List.of("refers to ada's", "carol's")) {
            assertEquals(scene.exact.get(role), lrs.get("/xapi/statements?format=exact&statementId="
                    + scene.ids.get(role)).body(), role + " is byte for byte as it was");
        }
        assertEquals(0, TestLrs.json(lrs.get("/xapi/statements?related_agents=true&agent="
                + URLEncoder.encode(ADA_AGENT, StandardCharsets.UTF_8))).get("statements").size());
        assertEquals(404, lrs.get(ErasureScene.state(ADA)).statusCode());
        assertFalse(PendingErasure.exists(data.resolve("log")));
        assertFalse(anyFileHolds(data, ADA), "no file of the data directory holds Ada's address, while Cairn runs");
        assertFalse(anyFileHolds(data, "Ada Lovelace"), "nor her name");
        assertFalse(anyRowHolds(database.url(), ADA));

        JsonNode audit = TestLrs.json(call("GET", null, ADMIN)).get("erasures");
        assertEquals(1, audit.size(), audit.toString());
        assertTrue(audit.get(0).get("subject").asText().startsWith("agent sha256:"), audit.toString());
        assertFalse(audit.toString().contains(ADA));

        String later = TestLrs.json(lrs.post(Statements.statement(ADA, Statements.COMPLETED,
                "http://example.com/course/2"))).get(0).asText();
        assertEquals(200, lrs.get("/xapi/statements?statementId=" + later).statusCode(),
                "what she does after the erasure is new data");
        lrs.close();
        lrs = null;
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * A retention period asked of a running Cairn removes what was stored before its end, row by row: the names of
     * those who are still in the store stay, the others' go from the tables and the files (from an earlier erasure's
     * residues too), and a replay of the rewritten log gives the tables it left.
     */
    @Test
    void aRetentionPeriodErasesWhatWasStoredBeforeItFromARunningCairn() throws Exception {
        long end = scene.playRetention(lrs);
        assertEquals(200, call("POST", ERASE_ADA, ADMIN).statusCode());
        HttpResponse<String> r = call("POST", "{\"storedBefore\":\"" + Instant.ofEpochMilli(end) + "\"}", ADMIN);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(ErasureScene.EXPIRED.size(), TestLrs.json(r).get("statementsRemoved").asInt(), r.body());
        scene.assertRetained(lrs, data);
        JsonNode audit = TestLrs.json(call("GET", null, ADMIN)).get("erasures");
        assertTrue(audit.get(1).get("subject").asText().startsWith("stored before "), audit.toString());
        refused(call("POST", "{\"storedBefore\":\"" + Instant.ofEpochMilli(end) + "\"}", ADMIN), 404,
                "erasure.no_match", "$.storedBefore");
        lrs.close();
        lrs = null;
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /** Statements removed by id from a running Cairn leave what the same erasure with the processes stopped leaves. */
    @Test
    void statementsAreErasedByIdFromARunningCairn() throws Exception {
        scene.playRetention(lrs);
        assertEquals(200, call("POST", ERASE_ADA, ADMIN).statusCode());
        String ids = String.join("\",\"", scene.expiredIds());
        HttpResponse<String> r = call("POST", "{\"statementIds\":[\"" + ids + "\"]}", ADMIN);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(ErasureScene.EXPIRED.size(), TestLrs.json(r).get("statementsRemoved").asInt(), r.body());
        scene.assertRetained(lrs, data);
        JsonNode audit = TestLrs.json(call("GET", null, ADMIN)).get("erasures");
        assertTrue(audit.get(1).get("subject").asText().startsWith("statements "), audit.toString());
        lrs.close();
        lrs = null;
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /** With the retention setting, the process that projects erases what was stored longer ago, on its own. */
    @Test
    void theRetentionSettingErasesWhatWasStoredLongerAgoOnItsOwn() throws Exception {
        String first = TestLrs.json(lrs.post(Statements.statement("first@example.com", Statements.COMPLETED,
                ErasureScene.ACTIVITY))).get(0).asText();
        lrs.close();
        // Started again an hour and a minute later, as its clock says (the shortest period is an hour).
        Map<String, String> given = new HashMap<>(Map.of("data", data.toString(), "db", database.url(), "port", "0",
                "admin-credential", TestLrs.KEY + ":" + TestLrs.SECRET, "retention", "PT1H", "retention-check",
                "60000"));
        lrs = new TestLrs(Settings.parse(given), List.of(), Clock.offset(Clock.systemUTC(), Duration.ofMinutes(61)));
        String second = TestLrs.json(lrs.post(Statements.statement("second@example.com", Statements.COMPLETED,
                ErasureScene.ACTIVITY))).get(0).asText();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // Done once recorded (its transaction) and its mark gone (the log rewritten and the database cleaned after).
        while (TestLrs.json(call("GET", null, ADMIN)).get("erasures").isEmpty()
                || PendingErasure.exists(data.resolve("log"))) {
            assertTrue(System.nanoTime() < deadline, "erased within 60 s (the first check is 10 s after start)");
            Thread.sleep(100);
        }
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + first).statusCode());
        assertEquals(200, lrs.get("/xapi/statements?statementId=" + second).statusCode(),
                "the second is younger than the period");
        assertTrue(TestLrs.json(call("GET", null, ADMIN)).get("erasures").get(0).get("subject").asText()
                .startsWith("stored before "));
        assertFalse(anyFileHolds(data, "first@example.com"));
    }

    /**
     * Writers go on through an erasure: every statement acknowledged to them is stored and found, before, during and
     * after it, and the log they appended to while entries before them were rewritten replays to the same tables.
     */
    @Test
    void writesGoOnDuringAnErasureAndNoneIsLost() throws Exception {
        scene.play(lrs);
        for (int i = 0; i < 200; i++) { // entries of hers for the erasure to rewrite while the writer appends
            assertEquals(200, lrs.post(Statements.statement(ADA, Statements.COMPLETED, "http://example.com/a/" + i))
                    .statusCode());
        }
        AtomicBoolean erasing = new AtomicBoolean(true);
        List<String> acknowledged = new ArrayList<>();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            Future<?> writes = writer.submit(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                int after = 0;
                while ((erasing.get() || after++ < 20) && System.nanoTime() < deadline) {
                    HttpResponse<String> r = lrs.post(Statements.statement("bob@example.com", Statements.COMPLETED,
                            "http://example.com/b/" + acknowledged.size()));
                    assertEquals(200, r.statusCode(), r.body());
                    acknowledged.add(TestLrs.json(r).get(0).asText());
                }
                return null;
            });
            HttpResponse<String> r = call("POST", ERASE_ADA, ADMIN);
            erasing.set(false);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(203, TestLrs.json(r).get("statementsRemoved").asInt(), r.body());
            writes.get(90, TimeUnit.SECONDS);
        } finally {
            writer.shutdownNow();
        }
        assertTrue(acknowledged.size() > 20, "the writer went on: " + acknowledged.size());
        for (String id : acknowledged) {
            assertEquals(200, lrs.get("/xapi/statements?statementId=" + id).statusCode(), id);
        }
        lrs.close();
        lrs = null;
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    @Test
    void badRequestsAreRefusedWithTheirPathAndEraseNothing() throws Exception {
        scene.play(lrs);
        refused(call("POST", ERASE_ADA, null), 401, "auth.required", null);
        String[] all = lrs.credentials("create", "--scope", "all").split(":", 2);
        refused(call("POST", ERASE_ADA, TestLrs.basic(all[0], all[1])), 403, "auth.scope", null);
        refused(call("GET", null, TestLrs.basic(all[0], all[1])), 403, "auth.scope", null);
        refused(call("POST", "{\"agents\":[{\"mbox\":\"ada@example.com\"}]}", ADMIN), 400, "mbox.invalid",
                "$.agents[0] $.mbox");
        refused(call("POST", "{\"agents\":[{\"objectType\":\"Group\",\"member\":[" + ADA_AGENT + "]}]}", ADMIN), 400,
                "agent.no_ifi", "$.agents[0]");
        refused(call("POST", "{\"agents\":" + ADA_AGENT + "}", ADMIN), 400, "erasure.invalid", "$.agents");
        refused(call("POST", "{\"agents\":[" + ("{\"mbox\":\"mailto:x@example.com\"},").repeat(
                ErasuresHandler.MAX_PEOPLE) + ADA_AGENT + "]}", ADMIN), 400, "erasure.invalid", "$.agents");
        HttpResponse<String> fromBrowser = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base()
                + "/admin/erasures")).header("Authorization", ADMIN).header("Content-Type", "application/json")
                .header("Origin", "https://course.example").POST(HttpRequest.BodyPublishers.ofString(ERASE_ADA)).build(),
                HttpResponse.BodyHandlers.ofString());
        refused(fromBrowser, 403, "cors.admin", "header Origin");
        refused(call("POST", "{\"agent\":" + ADA_AGENT + "}", ADMIN), 400, "erasure.invalid", "$.agent");
        refused(call("POST", "{\"agents\":[" + ADA_AGENT + "],\"agents\":[]}", ADMIN), 400, "json.invalid", "$");
        refused(call("POST", "[]", ADMIN), 400, "erasure.invalid", "$");
        refused(call("POST", "{}", ADMIN), 400, "erasure.invalid", "$.agents");
        refused(call("POST", "{\"agents\":[" + ADA_AGENT + "],\"dryRun\":\"yes\"}", ADMIN), 400, "erasure.invalid",
                "$.dryRun");
        refused(call("POST", "{\"storedBefore\":\"" + Instant.now().plusSeconds(3600) + "\"}", ADMIN), 400,
                "timestamp.future", "$.storedBefore");
        refused(call("POST", "{\"statementIds\":[\"not-a-uuid\"]}", ADMIN), 400, null, "$.statementIds[0]");
        refused(call("POST", "{\"agents\":[{\"mbox\":\"mailto:nobody@example.com\"}]}", ADMIN), 404,
                "erasure.no_match", "$.agents");
        refused(call("POST", "{\"storedBefore\":\"2000-01-01T00:00:00Z\"}", ADMIN), 404, "erasure.no_match",
                "$.storedBefore");
        refused(call("POST", "{\"agents\":[" + ADA_AGENT + "],\"storedBefore\":\"" + Instant.now() + "\"}", ADMIN),
                409, "erasure.offline", "$");
        refused(call("POST", "{\"statementIds\":[\"" + java.util.UUID.randomUUID() + "\"]}", ADMIN), 404,
                "erasure.no_match", "$.statementIds");
        refused(call("POST", "{\"agents\":[" + ADA_AGENT + "],\"statementIds\":[\"" + scene.ids.get("carol's")
                + "\"]}", ADMIN), 409, "erasure.offline", "$");
        PendingErasure.mark(data.resolve("log"), "0000abcd", new dev.cairn.erase.ErasurePlan.Request(List.of(),
                java.util.Set.of(), null), Long.MAX_VALUE); // as an erasure that failed mid-way leaves it
        refused(call("POST", ERASE_ADA, ADMIN), 409, "erasure.offline", "$");
        assertTrue(PendingErasure.exists(data.resolve("log")), "the unfinished erasure's mark stays for cairn erase");
        PendingErasure.clear(data.resolve("log"));
        HttpResponse<String> plain = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/admin/erasures"))
                .header("Authorization", ADMIN).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(ERASE_ADA)).build(), HttpResponse.BodyHandlers.ofString());
        refused(plain, 415, "body.content_type", "header Content-Type");
        refused(call("POST", "{\"agents\":[" + ADA_AGENT.repeat(1) + "," + "{\"mbox\":\"mailto:x@example.com\"}"
                .repeat(ErasuresHandler.MAX_BODY / 20) + "]}", ADMIN), 413, null, null);

        for (String role : scene.ids.keySet()) {
            String param = role.equals("bob's") ? "voidedStatementId" : "statementId"; // Ada voided it
            assertEquals(200, lrs.get("/xapi/statements?" + param + "=" + scene.ids.get(role)).statusCode(), role);
        }
        assertEquals(0, TestLrs.json(call("GET", null, ADMIN)).get("erasures").size());
        assertFalse(PendingErasure.exists(data.resolve("log")));
    }

    /**
     * A running Cairn killed at any moment of an erasure it was asked for either had not begun it, or leaves the
     * pending mark (then no process of a split deployment starts on the data until serve or 'cairn erase' has finished
     * it), or had finished it: after that the person is gone from every file, the rest is as it was, and a replay gives
     * the tables.
     */
    @Test
    void aServeKilledMidErasureLeavesItWholeOrFinishedByServeOrTheCommand() throws Exception {
        lrs.close();
        lrs = null;
        java.util.Random random = new java.util.Random();
        long whole = 0;
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        for (int trial = 0; trial < KILL_TRIALS; trial++) {
            java.nio.file.Path dir = data.resolve("trial-" + trial);
            try (dev.cairn.store.TestDatabase db = dev.cairn.store.TestDatabase.create(dialect, dir)) {
                ErasureScene trialScene = new ErasureScene();
                try (TestLrs setUp = new TestLrs(dir, db.url())) {
                    trialScene.play(setUp);
                    // enough of hers, in ten entries, that the kill lands inside the erasure
                    for (int batch = 0; batch < 10; batch++) {
                        List<String> hers = new ArrayList<>();
                        for (int i = 0; i < 30; i++) {
                            hers.add(Statements.statement(ADA, Statements.COMPLETED, "http://example.com/a/" + batch
                                    + "/" + i));
                        }
                        assertEquals(200, setUp.post("[" + String.join(",", hers) + "]").statusCode());
                    }
                }
                String moment = "trial " + trial;
                try (ChildProcess serve = ChildProcess.cairn("serve", dir, db.url()).start()) {
                    serve.awaitReady(http);
                    java.util.concurrent.CompletableFuture<HttpResponse<String>> asked = http.sendAsync(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serve.port + "/admin/erasures"))
                                    .header("Authorization", ADMIN).header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(ERASE_ADA)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    long started = System.nanoTime();
                    if (trial == 0) {
                        assertEquals(200, asked.get(60, TimeUnit.SECONDS).statusCode());
                        whole = System.nanoTime() - started;
                    } else {
                        long at = (long) (whole * random.nextDouble() * 1.2);
                        Thread.sleep(at / 1_000_000, (int) (at % 1_000_000));
                        serve.kill();
                        moment += ", killed " + at / 1_000 + " µs into an erasure of " + whole / 1_000 + " µs";
                    }
                }
                System.out.println(moment + (PendingErasure.exists(dir.resolve("log")) ? ": the mark is there"
                        : ": no mark"));
                if (PendingErasure.exists(dir.resolve("log"))) {
                    EraseCommandTest.assertSplitProcessRefuses(dir, db.url());
                    if (trial % 2 == 0) {
                        new TestLrs(dir, db.url()).close(); // serve finishes it before it serves
                        moment += ", finished by serve";
                    } else {
                        assertEquals(0, Main.run("erase", "--data", dir.toString(), "--db", db.url()), moment);
                    }
                    assertFalse(PendingErasure.exists(dir.resolve("log")), moment);
                }
                int again = Main.run("erase", "--agent", ADA_AGENT, "--data", dir.toString(), "--db", db.url());
                assertTrue(again == 0 || again == 1, moment + ": erased now, or had been: " + again);
                try (TestLrs after = new TestLrs(dir, db.url())) {
                    for (String role : List.of("refers to ada's", "carol's")) {
                        assertEquals(trialScene.exact.get(role), after.get("/xapi/statements?format=exact&statementId="
                                + trialScene.ids.get(role)).body(), moment + ": " + role);
                    }
                    // A request the kill left waiting runs when Cairn starts again (and finds nothing left of her).
                    try (dev.cairn.store.Database read = dev.cairn.store.Database.open(db.url())) {
                        ErasureRequests waiting = new ErasureRequests(read);
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (!waiting.pending().isEmpty() && System.nanoTime() < deadline) {
                            Thread.sleep(20);
                        }
                        assertTrue(waiting.pending().isEmpty(), moment + ": the request left waiting has run");
                    }
                }
                assertFalse(anyFileHolds(dir, ADA), moment);
                assertFalse(anyRowHolds(db.url(), ADA), moment);
                RestartAndReplayTest.assertReplayRebuildsTheSameTables(dir, db.url());
            }
        }
    }
}
