package dev.cairn.ops;

import static dev.cairn.ops.Statements.COMPLETED;
import static dev.cairn.ops.Statements.statement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.Database;
import dev.cairn.store.ProjectionChecksum;
import dev.cairn.store.TestDatabase;
import java.io.File;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Statements outlive the process, and the log rebuilds exactly the tables live projection built. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class RestartAndReplayTest {
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

    @Test
    void statementsSurviveARestart() throws Exception {
        List<String> ids = new ArrayList<>();
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (int i = 0; i < 5; i++) {
                ids.add(TestLrs.json(lrs.post(statement("r" + i + "@example.com", COMPLETED, "http://example.com/r"))).get(0).asText());
            }
        }
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (String id : ids) {
                assertEquals(200, lrs.get("/xapi/statements?statementId=" + id).statusCode(), id);
            }
            assertEquals(5, TestLrs.json(lrs.get("/xapi/statements")).get("statements").size());
        }
    }

    /** After a restart the sequencer knows stored ids from its in-memory filter, loaded from the store. */
    @Test
    void afterARestartAStoredIdStillConflictsOrIsANoOp() throws Exception {
        List<String> ids = new ArrayList<>();
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (int i = 0; i < 5; i++) {
                String id = UUID.randomUUID().toString();
                assertEquals(200, lrs.post(Statements.withId(id, "c" + i + "@example.com", COMPLETED, "http://example.com/c")).statusCode());
                ids.add(id);
            }
        }
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            Thread.sleep(1000); // the filter of stored ids loads in the background; before that every id is looked up
            for (int i = 0; i < 5; i++) {
                assertEquals(200, lrs.post(Statements.withId(ids.get(i), "c" + i + "@example.com", COMPLETED,
                        "http://example.com/c")).statusCode(), "the same statement again is a no-op");
                assertEquals(409, lrs.post(Statements.withId(ids.get(i), "other@example.com", COMPLETED,
                        "http://example.com/c")).statusCode(), "another statement with a stored id conflicts");
            }
            assertEquals(5, TestLrs.json(lrs.get("/xapi/statements")).get("statements").size());
        }
    }

    /**
     * Runs {@code cairn replay} on the LRS in {@code data} and checks that it rebuilt every table as it was;
     * returns the tables' checksums.
     */
    static Map<String, String> assertReplayRebuildsTheSameTables(Path data, String dbUrl) {
        Map<String, String> live;
        try (Database db = Database.open(dbUrl)) {
            live = ProjectionChecksum.of(db);
        }
        assertEquals(0, Main.run("replay", "--data", data.toString(), "--db", dbUrl));
        try (Database db = Database.open(dbUrl)) {
            assertEquals(live, ProjectionChecksum.of(db));
        }
        return live;
    }

    @Test
    void replayRebuildsTablesEqualToTheLiveOnes() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (int i = 0; i < 20; i++) {
                StringBuilder batch = new StringBuilder("[");
                for (int j = 0; j < 5; j++) {
                    batch.append(j > 0 ? "," : "").append(statement("u" + (i * 5 + j) % 7 + "@example.com",
                            j % 2 == 0 ? COMPLETED : Statements.ATTEMPTED, "http://example.com/act/" + j));
                }
                assertEquals(200, lrs.post(batch.append(']').toString()).statusCode());
            }
            String first = TestLrs.json(lrs.get("/xapi/statements?limit=1")).get("statements").get(0).get("id").asText();
            lrs.post("{\"actor\":{\"mbox\":\"mailto:admin@example.com\"},\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/voided\"},"
                    + "\"object\":{\"objectType\":\"StatementRef\",\"id\":\"" + first + "\"}}");
            byte[] text = "kept through replay".getBytes(StandardCharsets.UTF_8);
            byte[] body = AttachmentApiTest.multipart(AttachmentApiTest.statement(UUID.randomUUID().toString(),
                    AttachmentApiTest.attachment("http://example.com/usage", "text/plain", text, null)),
                    new Object[] {"text/plain", AttachmentApiTest.sha256(text), text});
            assertEquals(200, lrs.send(lrs.request("/xapi/statements")
                    .header("Content-Type", "multipart/mixed; boundary=" + AttachmentApiTest.BOUNDARY)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))).statusCode());
        }
        Map<String, String> live = assertReplayRebuildsTheSameTables(data, database.url());
        assertEquals("102", live.get("statement").split(":")[0]);
        assertEquals("1", live.get("attachment").split(":")[0]);
    }

    @Test
    void replayKeepsForwardingTargetsTheirCursorsAndDeadLetters() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            assertEquals(200, lrs.post(statement("f@example.com", COMPLETED, "http://example.com/f")).statusCode());
        }
        try (Database db = Database.open(database.url())) {
            dev.cairn.store.ForwardStore store = new dev.cairn.store.ForwardStore(db);
            store.insert(new dev.cairn.store.ForwardTarget("kept", "webhook", "http://127.0.0.1:9/hook", null, null, "",
                    10, 100, null, true, 42L));
            store.deadLetter("kept", 42, 1, "{}".getBytes(StandardCharsets.UTF_8), "application/json", 400, "no");
        }
        assertReplayRebuildsTheSameTables(data, database.url());
        try (Database db = Database.open(database.url())) {
            dev.cairn.store.ForwardStore store = new dev.cairn.store.ForwardStore(db);
            assertEquals(42L, store.find("kept").orElseThrow().logPosition(), "the target and its cursor");
            List<dev.cairn.store.DeadLetter> letters = store.deadLetters("kept");
            assertEquals(1, letters.size());
            store.deadLetter("kept", 43, 1, "{}".getBytes(StandardCharsets.UTF_8), "application/json", 400, "no");
            assertTrue(store.deadLetters("kept").get(1).id() > letters.get(0).id(), "ids go on after the kept ones");
        }
    }

    /**
     * A replay that stops part-way (here at an entry damaged after the live tables applied it) leaves every live table
     * as it was, instead of fewer statements than before.
     */
    @Test
    void aReplayThatStopsAtABadEntryLeavesTheLiveTablesAsTheyWere() throws Exception {
        try (TestLrs lrs = new TestLrs(data, database.url())) {
            for (int i = 0; i < 10; i++) {
                assertEquals(200, lrs.post(statement("b" + i + "@example.com", COMPLETED, "http://example.com/b")).statusCode());
            }
        }
        Map<String, String> live;
        try (Database db = Database.open(database.url())) {
            live = ProjectionChecksum.of(db);
        }
        zeroBody(data.resolve("log"), 4);
        assertEquals(1, Main.run("replay", "--data", data.toString(), "--db", database.url()));
        try (Database db = Database.open(database.url())) {
            assertEquals(live, ProjectionChecksum.of(db));
        }
        assertEquals("10", live.get("statement").split(":")[0]);
    }

    /** Zeroes the body of the {@code n}th entry of the log (from 0), keeping its complete Chronicle header. */
    static void zeroBody(Path logDir, int n) throws Exception {
        File file;
        long position;
        int length;
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(logDir).build(); ExcerptTailer t = q.createTailer()) {
            for (int i = 0; i < n; i++) {
                try (DocumentContext dc = t.readingDocument()) {
                    assertTrue(dc.isPresent());
                }
            }
            try (DocumentContext dc = t.readingDocument()) {
                position = dc.wire().bytes().readPosition();
                length = (int) dc.wire().bytes().readRemaining();
                file = t.currentFile();
            }
        }
        try (FileChannel ch = FileChannel.open(file.toPath(), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(length), position);
        }
    }
}
