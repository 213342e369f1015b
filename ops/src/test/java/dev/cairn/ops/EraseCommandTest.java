package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.cairn.ops.ErasureScene.ACTIVITY;
import static dev.cairn.ops.ErasureScene.ADA;
import static dev.cairn.ops.ErasureScene.ADA_AGENT;
import static dev.cairn.ops.ErasureScene.agent;
import static dev.cairn.ops.ErasureScene.state;
import static dev.cairn.ops.ErasureScene.statement;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.erase.ErasurePlan;
import dev.cairn.erase.PendingErasure;
import dev.cairn.log.EventCodec;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.log.chronicle.LogCompaction;
import dev.cairn.store.Database;
import dev.cairn.store.ErasureRequests;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.ProjectionChecksum;
import dev.cairn.store.TestDatabase;
import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code cairn erase} of a person among others, with StatementRefs, a voiding, documents and an attachment: what is
 * theirs is gone from the answers, from the log's files and from the database, what is someone else's is as it was
 * (byte for byte where the person is not in it), and a replay of the rewritten log gives the tables the erasure left.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class EraseCommandTest {
    private static final int KILL_TRIALS = 10;
    private static final byte[] AUTHORITY = "{\"objectType\":\"Agent\",\"mbox\":\"mailto:lrs@example.com\"}"
            .getBytes(StandardCharsets.UTF_8);

    @Parameter
    String dialect;
    @TempDir
    Path data;
    TestDatabase database;

    @BeforeEach
    void createDatabase() {
        database = TestDatabase.create(dialect, data);
    }

    @AfterEach
    void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }

    private final ErasureScene scene = new ErasureScene();
    private final Map<String, String> ids = scene.ids;

    private void scene(TestLrs lrs) throws Exception {
        scene.play(lrs);
    }

    private String post(TestLrs lrs, String role, String body) throws Exception {
        return scene.post(lrs, role, body);
    }

    private boolean anyFileHolds(String text) throws IOException {
        return ErasureScene.anyFileHolds(data, text);
    }

    private boolean anyRowHolds(String text) throws Exception {
        return ErasureScene.anyRowHolds(database.url(), text);
    }

    /** What the last {@link #erase} printed. */
    private String erased = "";

    private int erase(String... args) {
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            return erase(data, database.url(), args);
        } finally {
            System.setOut(out);
            erased = captured.toString(StandardCharsets.UTF_8);
            out.print(erased);
        }
    }

    private static int erase(Path dir, String url, String... args) {
        List<String> all = new ArrayList<>(List.of("erase"));
        all.addAll(List.of(args));
        all.addAll(List.of("--data", dir.toString(), "--db", url));
        return Main.run(all.toArray(String[]::new));
    }

    @Test
    void aPersonIsErasedFromTheAnswersTheLogAndTheDatabaseAndOthersKeepTheirs() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
        }
        assertTrue(anyFileHolds(ADA) || anyRowHolds(ADA));
        assertEquals(0, erase("--agent", ADA_AGENT, "--dry-run"));
        assertTrue(anyRowHolds(ADA), "a dry run changes nothing");

        assertEquals(0, erase("--agent", ADA_AGENT));
        assertTrue(erased.contains("table rows changed"), "only the rows it touches: " + erased);

        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (String role : List.of("ada's", "ada's essay", "ada with dave")) {
                assertEquals(404, lrs.get("/xapi/statements?statementId=" + ids.get(role)).statusCode(), role);
            }
            JsonNode about = TestLrs.json(lrs.get("/xapi/statements?statementId=" + ids.get("about ada")));
            assertTrue(about.path("object").path("openid").asText("").startsWith("urn:cairn:erased:"), about.toString());
            assertFalse(about.get("object").has("name"), about.toString());
            JsonNode instructs = TestLrs.json(lrs.get("/xapi/statements?statementId=" + ids.get("ada instructs")));
            assertEquals(about.get("object").get("openid"), instructs.get("context").get("instructor").get("openid"),
                    "one placeholder per erasure");
            assertEquals("asked erased.", instructs.get("result").get("response").asText());
            for (String role : List.of("refers to ada's", "carol's")) {
                assertEquals(scene.exact.get(role), lrs.get("/xapi/statements?format=exact&statementId=" + ids.get(role))
                        .body(), role + " is byte for byte as it was");
            }
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + ids.get("bob's")).statusCode(),
                    "bob's stays voided: the voiding statement was rewritten, not removed");
            assertEquals(200, lrs.get("/xapi/statements?voidedStatementId=" + ids.get("bob's")).statusCode());
            String byAda = "/xapi/statements?related_agents=true&agent=" + URLEncoder.encode(ADA_AGENT,
                    StandardCharsets.UTF_8);
            assertEquals(0, TestLrs.json(lrs.get(byAda)).get("statements").size());
            assertEquals(404, lrs.get(state(ADA)).statusCode());
            assertEquals("progress of bob@example.com", lrs.get(state("bob@example.com")).body());
            JsonNode course = TestLrs.json(lrs.get("/xapi/activities?activityId=" + URLEncoder.encode(ACTIVITY,
                    StandardCharsets.UTF_8))).get("definition");
            assertEquals("The course", course.path("name").path("en-US").asText(),
                    "the activity keeps the definition her removed statement gave it: " + course);
            assertEquals("notes by erased", course.path("description").path("en-US").asText(), course.toString());
            assertEquals("[\"Dave Teacher\"]", TestLrs.json(lrs.get("/xapi/agents?agent=" + URLEncoder.encode(
                    "{\"mbox\":\"mailto:dave@example.com\"}", StandardCharsets.UTF_8))).get("name").toString(),
                    "the name her removed statement gave Dave stays, as a replay gives it from its residue");
            assertEquals("[\"Erin, ask erased\"]", TestLrs.json(lrs.get("/xapi/agents?agent=" + URLEncoder.encode(
                    "{\"mbox\":\"mailto:erin@example.com\"}", StandardCharsets.UTF_8))).get("name").toString());
        }
        assertFalse(anyFileHolds(ADA), "no file of the data directory holds Ada's address");
        assertFalse(anyFileHolds("Ada Lovelace"), "nor her name");
        assertFalse(anyRowHolds(ADA));
        try (Database db = Database.open(database.url())) {
            List<ErasureStore.Erasure> audit = new ErasureStore(db).list();
            assertEquals(1, audit.size());
            assertTrue(audit.get(0).subject().startsWith("agent sha256:"), audit.get(0).subject());
            assertEquals(3, audit.get(0).statementsRemoved());
            assertEquals(4, audit.get(0).statementsRewritten());
            assertEquals(1, audit.get(0).documentEntries());
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * A request a killed Cairn left waiting (POST /admin/erasures), which names the person, is settled by a 'cairn
     * erase' of them: nothing is left for it to do, and it must not keep their address in the database's files.
     */
    @Test
    void aWaitingRequestForTheSamePersonIsSettledAndForgotten() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
        }
        ErasurePlan.Request ada = new ErasurePlan.Request(List.of(new Ifi(Ifi.Kind.MBOX, "mailto:" + ADA, null)),
                Set.of(), null);
        ErasurePlan.Request adaAndBob = new ErasurePlan.Request(List.of(new Ifi(Ifi.Kind.MBOX, "mailto:" + ADA, null),
                new Ifi(Ifi.Kind.MBOX, "mailto:bob@example.com", null)), Set.of(), null);
        try (Database db = Database.open(database.url())) {
            ErasureRequests requests = new ErasureRequests(db);
            assertTrue(requests.ask("0000aaaa", 0, PendingErasure.encode("0000aaaa", ada),
                    ada.people().stream().map(Ifi::key).toList()));
            assertTrue(requests.ask("0000bbbb", 0, PendingErasure.encode("0000bbbb", adaAndBob),
                    adaAndBob.people().stream().map(Ifi::key).toList()));
        }
        assertEquals(0, erase("--agent", ADA_AGENT));
        try (Database db = Database.open(database.url())) {
            ErasureRequests requests = new ErasureRequests(db);
            assertEquals(ErasureRequests.Status.NOTHING, requests.status("0000aaaa").orElseThrow().status());
            assertEquals(List.of("0000bbbb"), requests.pending().stream().map(ErasureRequests.Pending::erasureId)
                    .toList(), "a request for Bob too still has Bob to erase");
        }
    }

    /**
     * An erasure settles only the waiting requests asked before the end of the log it read: a request asked later (a
     * retry after the person stored more) still runs, and erases what came after.
     */
    @Test
    void aWaitingRequestAskedAfterWhatAnErasureReadStillRuns() throws Exception {
        long read;
        long later;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
            read = lastPosition();
            assertEquals(200, lrs.post(Statements.statement(ADA, Statements.COMPLETED, ACTIVITY)).statusCode());
            later = lastPosition();
        }
        ErasurePlan.Request ada = new ErasurePlan.Request(List.of(new Ifi(Ifi.Kind.MBOX, "mailto:" + ADA, null)),
                Set.of(), null);
        try (Database db = Database.open(database.url())) {
            ErasureRequests requests = new ErasureRequests(db);
            List<String> keys = ada.people().stream().map(Ifi::key).toList();
            assertTrue(requests.ask("0000aaaa", read, PendingErasure.encode("0000aaaa", ada), keys));
            assertTrue(requests.ask("0000cccc", later, PendingErasure.encode("0000cccc", ada), keys));
        }
        // An online erasure of Ada that read the log up to 'read' and was killed; 'cairn erase' finishes it.
        PendingErasure.mark(data.resolve("log"), "0000dddd", ada, read);
        assertEquals(0, erase());
        try (Database db = Database.open(database.url())) {
            ErasureRequests requests = new ErasureRequests(db);
            assertEquals(ErasureRequests.Status.NOTHING, requests.status("0000aaaa").orElseThrow().status());
            assertEquals(List.of("0000cccc"), requests.pending().stream().map(ErasureRequests.Pending::erasureId)
                    .toList(), "asked after what the erasure read: Ada's later statement is still to erase");
        }
    }

    private long lastPosition() {
        try (dev.cairn.log.EventLog log = ChronicleLog.open(data.resolve("log"))) {
            return log.lastSyncedPosition();
        }
    }

    @Test
    void statementsByIdAndStoredBeforeATimeAreRemovedAndTheRestKept() throws Exception {
        String keep;
        String drop;
        long between;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            String old = TestLrs.json(lrs.post(Statements.statement("old@example.com", Statements.COMPLETED, ACTIVITY)))
                    .get(0).asText();
            Thread.sleep(20);
            between = System.currentTimeMillis();
            Thread.sleep(20);
            drop = TestLrs.json(lrs.post(Statements.statement("x@example.com", Statements.COMPLETED, ACTIVITY)))
                    .get(0).asText();
            keep = TestLrs.json(lrs.post(Statements.statement("y@example.com", Statements.COMPLETED, ACTIVITY)))
                    .get(0).asText();
            ids.put("old", old);
        }
        assertEquals(0, erase("--statement-id", drop, "--stored-before",
                java.time.Instant.ofEpochMilli(between).toString()));
        assertTrue(erased.contains("table rows changed"), erased);
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + ids.get("old")).statusCode());
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + drop).statusCode());
            assertEquals(200, lrs.get("/xapi/statements?statementId=" + keep).statusCode());
            assertEquals(1, TestLrs.json(lrs.get("/xapi/statements")).get("statements").size());
        }
        assertFalse(anyFileHolds("old@example.com"));
        assertFalse(anyFileHolds("x@example.com"));
        assertTrue(anyFileHolds("y@example.com"));
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * A retention period alone removes the statements stored before its time and reads the log only up to there
     * (stored times never decrease along it): what was stored after is kept whole.
     */
    @Test
    void aRetentionPeriodRemovesWhatWasStoredBeforeItAndKeepsTheRest() throws Exception {
        List<String> before = new ArrayList<>();
        List<String> after = new ArrayList<>();
        long cut;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (int i = 0; i < 3; i++) {
                before.add(TestLrs.json(lrs.post(Statements.statement("old" + i + "@example.com", Statements.COMPLETED,
                        ACTIVITY))).get(0).asText());
            }
            Thread.sleep(20);
            cut = System.currentTimeMillis();
            Thread.sleep(20);
            for (int i = 0; i < 3; i++) {
                after.add(TestLrs.json(lrs.post(Statements.statement("new" + i + "@example.com", Statements.COMPLETED,
                        ACTIVITY))).get(0).asText());
            }
        }
        assertEquals(0, erase("--stored-before", java.time.Instant.ofEpochMilli(cut).toString()));
        assertTrue(erased.contains("erasing: 3 statements removed, 0 rewritten"), erased);
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (String id : before) {
                assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode(), id);
            }
            for (String id : after) {
                assertEquals(200, lrs.get("/xapi/statements?statementId=" + id).statusCode(), id);
            }
        }
        assertFalse(anyFileHolds("old1@example.com"));
        assertTrue(anyFileHolds("new1@example.com"));
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * A retention period changes the rows it touches instead of rebuilding the tables: the names of those who are still
     * in the store stay, the others' go from the tables and every file (from an earlier erasure's residues too), and a
     * replay of the rewritten log gives the tables it left.
     */
    @Test
    void aRetentionPeriodChangesOnlyTheRowsItTouchesAndKeepsTheNamesOfWhoStays() throws Exception {
        long end = playRetentionAndEraseAda();
        assertChosenStatementsGoRowByRow("--stored-before", java.time.Instant.ofEpochMilli(end).toString());
    }

    /**
     * Statements removed by id change only the rows they touch, with the same rule for names as a retention period:
     * removing by id what the period would remove leaves what it leaves.
     */
    @Test
    void statementsRemovedByIdChangeOnlyTheRowsTheyTouchAndKeepTheNamesOfWhoStays() throws Exception {
        playRetentionAndEraseAda();
        List<String> options = new ArrayList<>();
        scene.expiredIds().forEach(id -> options.addAll(List.of("--statement-id", id)));
        assertChosenStatementsGoRowByRow(options.toArray(String[]::new));
    }

    /** Plays {@link ErasureScene#playRetention} and erases Ada; the end of its retention period. */
    private long playRetentionAndEraseAda() throws Exception {
        long end;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            end = scene.playRetention(lrs);
        }
        assertEquals(0, erase("--agent", ADA_AGENT));
        return end;
    }

    /** Erases with {@code options} what the scene's period would, row by row, and checks what is left and the replay. */
    private void assertChosenStatementsGoRowByRow(String... options) throws Exception {
        assertEquals(0, erase(options));
        assertTrue(erased.contains("erasing: " + ErasureScene.EXPIRED.size() + " statements removed"), erased);
        assertTrue(erased.contains("table rows changed"), erased);
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene.assertRetained(lrs, data);
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * An activity IRI that holds the person's address is rewritten with the statements that name it, which changes the
     * activity's key: the tables are rebuilt from the rewritten log instead of changed row by row.
     */
    @Test
    void aPersonNamedInsideAnotherKeyIsErasedByARebuildOfTheTables() throws Exception {
        String profile = "http://example.com/profiles/" + ADA;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
            post(lrs, "bob reads ada's profile", statement(agent("bob@example.com", "Bob"), Statements.ATTEMPTED,
                    "{\"id\":\"" + profile + "\"}", ""));
        }
        assertEquals(0, erase("--agent", ADA_AGENT));
        assertTrue(erased.contains("tables to be rebuilt (a key other than the people's own"), erased);
        assertFalse(anyFileHolds(ADA));
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals("http://example.com/profiles/erased", TestLrs.json(lrs.get("/xapi/statements?statementId="
                    + ids.get("bob reads ada's profile"))).path("object").path("id").asText());
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * An account name is not replaced in text, only the Agent it identifies: an activity IRI that happens to hold it
     * stays as it is, and the erasure changes only the rows it touches.
     */
    @Test
    void aPersonNamedByAnAccountIsErasedRowByRowWhereverTheirAccountNameAppearsInText() throws Exception {
        String account = "{\"objectType\":\"Agent\",\"account\":{\"homePage\":\"https://lms.example.com\","
                + "\"name\":\"4711\"}}";
        String course = "http://example.com/course/4711";
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            post(lrs, "hers", statement(account, Statements.COMPLETED, "{\"id\":\"" + course + "\"}", ""));
            post(lrs, "bob's", statement(agent("bob@example.com", "Bob"), Statements.COMPLETED,
                    "{\"id\":\"" + course + "\"}", ""));
        }
        assertEquals(0, erase("--agent", account));
        assertTrue(erased.contains("table rows changed"), erased);
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + ids.get("hers")).statusCode());
            assertEquals(course, TestLrs.json(lrs.get("/xapi/statements?statementId=" + ids.get("bob's")))
                    .path("object").path("id").asText());
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * An activity that only a removed statement's residue still defines has a row but no filter key: a person named in
     * its id is found all the same, and the tables rebuilt (its id changes with the residue).
     */
    @Test
    void aPersonInTheIdOfAnActivityOnlyAResidueGivesIsErasedByARebuild() throws Exception {
        String profile = "http://example.com/profiles/" + ADA;
        String carols;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            carols = TestLrs.json(lrs.post(statement(agent("carol@example.com", "Carol"), Statements.COMPLETED,
                    "{\"id\":\"" + profile + "\",\"definition\":{\"name\":{\"en\":\"A profile\"}}}", "")))
                    .get(0).asText();
            lrs.post(statement(agent("bob@example.com", "Bob"), Statements.COMPLETED, agent(ADA, "Ada"), ""));
        }
        assertEquals(0, erase("--statement-id", carols));
        assertEquals(0, erase("--agent", ADA_AGENT));
        assertTrue(erased.contains("tables to be rebuilt (a key other than the people's own"), erased);
        assertFalse(anyFileHolds(ADA));
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * A SQLite database created before every connection zeroed what it deleted may keep stale copies of rows in its
     * free pages: an erasure builds a new one instead of deleting in place, and the next erasure deletes in place.
     */
    @Test
    void aDatabaseCreatedByAnEarlierReleaseIsRebuiltByItsFirstErasure() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
        }
        try (Database db = Database.open(database.url()); Connection c = db.reader();
             java.sql.Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM schema_version WHERE version < 0");
        }
        assertEquals(0, erase("--agent", ADA_AGENT));
        assertEquals(dialect.equals("sqlite"), erased.contains("tables to be rebuilt (a database created by an earlier"),
                erased);
        assertFalse(anyFileHolds(ADA));
        assertEquals(0, erase("--agent", "{\"mbox\":\"mailto:carol@example.com\"}"));
        assertTrue(erased.contains("table rows changed"), "the new database zeroes what it deletes: " + erased);
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /** A removed statement's tombstone keeps its activity definitions, which a later erasure of someone named there scrubs. */
    @Test
    void aLaterErasureTakesItsPersonOutOfTheDefinitionsAnEarlierOneKept() throws Exception {
        String activity = "http://example.com/activities/essay";
        String statement = "{\"actor\":{\"mbox\":\"mailto:carol@example.com\"},\"verb\":{\"id\":\""
                + Statements.COMPLETED + "\"},\"object\":{\"id\":\"" + activity + "\",\"definition\":{"
                + "\"description\":{\"en-US\":\"marked by dan@example.com\"}}}}";
        String carols;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            carols = TestLrs.json(lrs.post(statement)).get(0).asText();
        }
        assertEquals(0, erase("--statement-id", carols));
        assertTrue(anyFileHolds("dan@example.com"), "the tombstone keeps the definition it gave");
        assertEquals(0, erase("--agent", "{\"mbox\":\"mailto:dan@example.com\"}"));
        assertFalse(anyFileHolds("dan@example.com"), "no file holds Dan's address");
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals("marked by erased", TestLrs.json(lrs.get("/xapi/activities?activityId="
                    + URLEncoder.encode(activity, StandardCharsets.UTF_8))).path("definition").path("description")
                    .path("en-US").asText());
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /**
     * A residue is written again, and its numbers may grow (9e9 is 9E+9): a statement of little but such a definition
     * leaves a tombstone that does not fit in its place with the residue, which then goes rather than the erasure fail.
     */
    @Test
    void aResidueThatDoesNotFitInItsPlaceGoesAndThePersonIsErased() throws Exception {
        String numbers = String.join(",", java.util.Collections.nCopies(1_000, "9e9"));
        String statement = "{\"actor\":" + ADA_AGENT + ",\"verb\":{\"id\":\"" + Statements.COMPLETED
                + "\"},\"object\":{\"id\":\"http://example.com/activities/numbers\",\"definition\":{"
                + "\"extensions\":{\"http://example.com/x\":[" + numbers + "]}}}}";
        String id;
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            id = TestLrs.json(lrs.post(statement)).get(0).asText();
        }
        assertEquals(0, erase("--agent", ADA_AGENT));
        assertFalse(anyFileHolds(ADA));
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode());
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    @Test
    void aRemovedStatementSentAgainIs409ErasedAfterAReplayToo() throws Exception {
        String removed = Statements.statement("x@example.com", Statements.COMPLETED, ACTIVITY);
        String id;
        String capitals = UUID.randomUUID().toString();
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            id = TestLrs.json(lrs.post(removed)).get(0).asText();
            lrs.post(Statements.statement("y@example.com", Statements.COMPLETED, ACTIVITY));
            // Its id as the client spelt it stays in its exact form: the search of the log goes by the id itself.
            assertEquals(200, lrs.post("{\"id\":\"" + capitals.toUpperCase(java.util.Locale.ROOT) + "\","
                    + Statements.statement("z@example.com", Statements.COMPLETED, ACTIVITY).substring(1)).statusCode());
        }
        assertEquals(0, erase("--statement-id", id, "--statement-id", capitals));
        assertFalse(anyFileHolds("z@example.com"), "the statement whose id was sent in capitals is gone too");
        String again = "{\"id\":\"" + id + "\"," + removed.substring(1);
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            HttpResponse<String> r = lrs.post(again);
            assertEquals(409, r.statusCode(), r.body());
            assertTrue(r.body().contains("statement.erased"), r.body());
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(409, lrs.put(id, again).statusCode(), "the replayed tables know the erased id too");
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode());
        }
        assertFalse(anyFileHolds("x@example.com"));
    }

    /**
     * Yesterday's statements sit in a closed cycle file of the log: the erasure gives their space back by compacting
     * it, and every process reads on across it (a replay of the compacted log equals the tables the erasure left).
     */
    @Test
    void anErasureCompactsTheClosedCycleItRewroteAndTheLogReadsOnAcrossIt() throws Exception {
        long yesterday = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(1);
        List<String> olderIds = new ArrayList<>();
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(data.resolve("log"))
                .blockSize(ChronicleLog.BLOCK_SIZE)
                .timeProvider(new SetTimeProvider(TimeUnit.MILLISECONDS.toNanos(yesterday))).build();
             ExcerptAppender a = q.createAppender()) {
            for (int i = 0; i < 6; i++) {
                String who = i % 2 == 0 ? ADA : "bob@example.com";
                UUID id = UUID.randomUUID();
                byte[] json = ExactWriter.write(StatementParser.parseOne(statement(agent(who, "Someone"),
                        Statements.COMPLETED, "{\"id\":\"" + ACTIVITY + "\"}", "").getBytes(StandardCharsets.UTF_8),
                        XapiVersion.V2_0_0), id, Timestamps.format(yesterday + i), AUTHORITY, "2.0.0");
                olderIds.add(id.toString());
                try (var dc = a.writingDocument()) {
                    EventCodec.encode(new StatementsStored(List.of(new StoredStatement(id, yesterday + i, json))),
                            dc.wire().bytes());
                }
            }
        }
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
            assertEquals(200, lrs.get("/xapi/statements?statementId=" + olderIds.get(1)).statusCode());
        }

        assertEquals(0, erase("--agent", ADA_AGENT));

        assertEquals(0, LogCompaction.compactClosedCycles(data.resolve("log")).cycles(),
                "the erasure compacted yesterday's cycle: nothing is left to give back");
        assertFalse(anyFileHolds(ADA));
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (int i = 0; i < olderIds.size(); i++) {
                assertEquals(i % 2 == 0 ? 404 : 200, lrs.get("/xapi/statements?statementId=" + olderIds.get(i))
                        .statusCode(), "yesterday's statement " + i);
            }
            assertEquals(scene.exact.get("carol's"), lrs.get("/xapi/statements?format=exact&statementId="
                    + ids.get("carol's")).body(), "today's, after the compacted cycle");
        }
    }

    @Test
    void logCompactRefusesBesideAWriterAndOnAnInterruptedErasure() throws Exception {
        String[] compact = {"log", "compact", "--data", data.toString(), "--db", database.url()};
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
            assertEquals(1, Main.run(compact), "not while another process writes the log");
        }
        assertEquals(0, Main.run(compact), "nothing to give back in the cycle being written: said, and exit 0");
        PendingErasure.mark(data.resolve("log"), "0000abcd", new ErasurePlan.Request(List.of(), Set.of(), null),
                Long.MAX_VALUE);
        assertEquals(1, Main.run(compact), "an interrupted erasure is finished by cairn erase first");
        assertEquals(0, erase("--agent", ADA_AGENT));
        assertFalse(PendingErasure.exists(data.resolve("log")));
    }

    /** The scene, and the mark an erasure of Ada killed before its rewrite left, with the placeholder id 0000abcd. */
    private Path sceneWithAdasErasureInterrupted() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
        }
        Path log = data.resolve("log");
        PendingErasure.mark(log, "0000abcd", new ErasurePlan.Request(List.of(new Ifi(Ifi.Kind.MBOX, "mailto:" + ADA,
                null)), Set.of(), null), Long.MAX_VALUE);
        return log;
    }

    /**
     * An erasure cut between two batches of its log rewrite is planned again from what is left: the mark keeps what it
     * erases and its id, so that a run without options finishes it, with the same placeholder.
     */
    @Test
    void anInterruptedErasureIsFinishedWithWhatItErasesAndItsOwnPlaceholder() throws Exception {
        Path log = sceneWithAdasErasureInterrupted();
        assertEquals(2, erase("--agent", "{\"mbox\":\"mailto:bob@example.com\"}"), "not another erasure first");
        assertTrue(PendingErasure.exists(log));
        byte[] mark = Files.readAllBytes(log.resolve("erasure.pending"));
        Files.writeString(log.resolve("erasure.pending"), "{\"erasure\":");
        assertEquals(1, erase(), "a damaged mark: said, and nothing erased");
        assertTrue(anyFileHolds(ADA));
        Files.write(log.resolve("erasure.pending"), mark);
        assertEquals(0, erase());
        assertFalse(PendingErasure.exists(log));
        assertFalse(anyFileHolds(ADA));
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals("urn:cairn:erased:0000abcd", TestLrs.json(lrs.get("/xapi/statements?statementId="
                    + ids.get("about ada"))).path("object").path("openid").asText());
        }
    }

    /**
     * A serve started on data whose erasure was interrupted (killed mid-way, say) finishes it before it answers
     * anything, with what the mark says and its placeholder; a process of a split deployment refuses to start on it.
     */
    @Test
    void serveFinishesAnInterruptedErasureBeforeItServesAndASplitProcessRefusesToStart() throws Exception {
        Path log = sceneWithAdasErasureInterrupted();
        assertSplitProcessRefuses(data, database.url());
        assertTrue(anyFileHolds(ADA), "nothing erased by a refusal");
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertFalse(PendingErasure.exists(log));
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + ids.get("ada's")).statusCode());
            assertEquals("urn:cairn:erased:0000abcd", TestLrs.json(lrs.get("/xapi/statements?statementId="
                    + ids.get("about ada"))).path("object").path("openid").asText());
            assertEquals(scene.exact.get("carol's"), lrs.get("/xapi/statements?format=exact&statementId="
                    + ids.get("carol's")).body());
        }
        assertFalse(anyFileHolds(ADA));
        assertFalse(anyRowHolds(ADA));
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    /** A query process (one of a split deployment) does not start on data whose erasure was interrupted. */
    static void assertSplitProcessRefuses(Path dir, String url) {
        assertThrows(IllegalStateException.class, () -> Cairn.start(TestLrs.settings(dir, url), EnumSet.of(Role.QUERY),
                List.of(), Clock.systemUTC()).close(), "no process of a split deployment starts on a half-done erasure");
    }

    @Test
    void badRequestsAreRefusedAndEraseNothing() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            scene(lrs);
            assertEquals(1, erase("--agent", ADA_AGENT), "not while another process writes the log");
        }
        assertEquals(2, erase("--agent", "{\"mbox\":\"ada@example.com\"}"), "an mbox is a mailto: IRI");
        assertEquals(2, erase("--agent", "{\"name\":\"Ada\"}"), "no IFI");
        assertEquals(2, erase("--agent", "not json"));
        assertEquals(2, erase("--statement-id", "123"));
        assertEquals(2, erase("--stored-before", "2999-01-01T00:00:00Z"), "in the future");
        assertEquals(2, erase("--stored-before", "yesterday"));
        assertEquals(2, erase(), "nothing to erase");
        assertEquals(1, erase("--agent", "{\"mbox\":\"mailto:nobody@example.com\"}"), "nothing matches");
        assertTrue(anyRowHolds(ADA), "nothing was erased");
        try (Database db = Database.open(database.url())) {
            assertTrue(new ErasureStore(db).list().isEmpty());
        }
    }

    /**
     * Killed at moments spread over a whole erasure, then run again: the erasure is whole, and no process of a split
     * deployment starts on it half done, while serve finishes it (every other trial finishes it so, the others with
     * the command). The first trial runs to its end and measures how long an erasure takes, from its JVM's start to its
     * exit; each later one kills at a random moment of its own tenth of that time.
     */
    @Test
    void anErasureKilledAtAnyMomentIsFinishedByTheNextRun() throws Exception {
        Random random = new Random();
        long whole = 0;
        for (int trial = 0; trial < KILL_TRIALS; trial++) {
            Path dir = data.resolve("trial-" + trial);
            try (TestDatabase db = TestDatabase.create(dialect, dir)) {
                ids.clear();
                scene.exact.clear();
                try (TestLrs lrs = new TestLrs(dir, db.url())) {
                    scene(lrs);
                }
                long started = System.nanoTime();
                try (ChildProcess eraser = new ChildProcess("erase", dir.resolve("erase.out"), "--agent", ADA_AGENT,
                        "--data", dir.toString(), "--db", db.url()).start()) {
                    if (trial == 0) {
                        assertEquals(0, eraser.awaitExit(Duration.ofSeconds(60)), eraser.output());
                        whole = System.nanoTime() - started;
                    } else {
                        long at = (long) (whole * (trial - 1 + random.nextDouble()) / (KILL_TRIALS - 1));
                        Thread.sleep(Math.max(0, (started + at - System.nanoTime()) / 1_000_000));
                        eraser.kill();
                    }
                }
                String moment = "trial " + trial + " of an erasure of " + whole / 1_000_000 + " ms";
                if (PendingErasure.exists(dir.resolve("log"))) {
                    assertSplitProcessRefuses(dir, db.url());
                    if (trial % 2 == 0) {
                        new TestLrs(dir, db.url()).close();
                        assertFalse(PendingErasure.exists(dir.resolve("log")), moment + ": serve finished it");
                        moment += ", finished by serve";
                    }
                }
                int again = erase(dir, db.url(), "--agent", ADA_AGENT);
                assertTrue(again == 0 || again == 1, moment + ": erased now, or had been whole: " + again);
                assertFalse(PendingErasure.exists(dir.resolve("log")), moment);
                assertFalse(ErasureScene.anyFileHolds(dir, ADA), moment);
                assertFalse(ErasureScene.anyRowHolds(db.url(), ADA), moment);
                try (TestLrs lrs = new TestLrs(dir, db.url())) {
                    assertEquals(404, lrs.get("/xapi/statements?statementId=" + ids.get("ada's")).statusCode(), moment);
                    assertEquals(scene.exact.get("carol's"), lrs.get("/xapi/statements?format=exact&statementId="
                            + ids.get("carol's")).body(), moment);
                }
                RestartAndReplayTest.assertReplayRebuildsTheSameTables(dir, db.url());
            }
        }
    }

}
