package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.store.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ingest, projector and query as three JVMs sharing the log directory and the database. Each is killed with
 * SIGKILL in the middle of a load and restarted: no acknowledged statement is lost, reads see writes across
 * processes, and the tables afterwards equal what a replay of the log builds.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class SplitProcessTest {
    @Parameter
    String dialect;
    @TempDir
    Path data;
    TestDatabase database;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    final List<ChildProcess> children = new ArrayList<>();
    ChildProcess ingest;
    ChildProcess project;
    ChildProcess query;

    @BeforeEach
    void start() throws Exception {
        database = TestDatabase.create(dialect, data);
        ingest = child("ingest").start();
        project = child("project").start();
        query = child("query").start();
        ingest.awaitReady(http);
        project.awaitReady(http);
        query.awaitReady(http);
    }

    @AfterEach
    void stop() throws Exception {
        for (ChildProcess c : children) {
            c.close();
        }
        if (database != null) {
            database.close();
        }
    }

    private ChildProcess child(String command) throws Exception {
        ChildProcess c = ChildProcess.cairn(command, data, database.url());
        children.add(c);
        return c;
    }

    private HttpRequest.Builder request(ChildProcess p, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.port + path)).timeout(Duration.ofSeconds(20))
                .header("X-Experience-API-Version", "2.0.0")
                .header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET));
    }

    private String post(String ack, int n) throws Exception {
        HttpResponse<String> r = http.send(request(ingest, "/xapi/statements").header("Content-Type", "application/json")
                .header("X-Cairn-Ack", ack)
                .POST(HttpRequest.BodyPublishers.ofString(Statements.statement("s" + n + "@example.com",
                        Statements.COMPLETED, "http://example.com/split"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return TestLrs.json(r).get(0).asText();
    }

    private int status(ChildProcess p, String path) throws Exception {
        return http.send(request(p, path).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Writes with ack=durable from two clients until stopped; returns the ids acknowledged. */
    private Future<List<String>> load(ExecutorService pool, AtomicBoolean running, int client) {
        return pool.submit(() -> {
            List<String> acknowledged = new ArrayList<>();
            int n = 0;
            while (running.get()) {
                try {
                    acknowledged.add(post("durable", client * 1_000_000 + n++));
                } catch (Exception | AssertionError e) {
                    Thread.sleep(50); // the ingest is down: nothing was acknowledged
                }
            }
            return acknowledged;
        });
    }

    @Test
    void writesAreReadableFromTheQueryProcessAtOnce() throws Exception {
        for (int i = 0; i < 5; i++) {
            String id = post("visible", i);
            assertEquals(200, status(query, "/xapi/statements?statementId=" + id), id);
        }
        assertEquals(405, status(ingest, "/xapi/statements"));
    }

    /**
     * An erasure asked of the query process runs in the projector's process, which rewrites the log's entries while
     * the ingest process appends after them: the person is gone from the answers and the files once it is answered,
     * writes go on, and a replay of the log gives the tables the erasure left.
     */
    @Test
    void aPersonIsErasedThroughOneProcessWhileTheOthersServe() throws Exception {
        List<String> hers = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            hers.add(post("visible", 7)); // s7@example.com
            others.add(post("visible", 100 + i));
        }
        HttpResponse<String> r = http.send(request(query, "/admin/erasures").header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(
                        "{\"agents\":[{\"mbox\":\"mailto:s7@example.com\"}]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(20, TestLrs.json(r).get("statementsRemoved").asInt(), r.body());
        for (String id : hers) {
            assertEquals(404, status(query, "/xapi/statements?statementId=" + id), id);
        }
        others.add(post("visible", 200));
        for (String id : others) {
            assertEquals(200, status(query, "/xapi/statements?statementId=" + id), id);
        }
        assertFalse(ErasureScene.anyFileHolds(data.resolve("log"), "s7@example.com"));
        for (ChildProcess c : children) {
            c.close();
        }
        children.clear();
        assertFalse(ErasureScene.anyFileHolds(data, "s7@example.com"));
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }

    @Test
    void killingEachProcessLosesNoAcknowledgedStatement() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Future<List<String>>> clients = List.of(load(pool, running, 1), load(pool, running, 2));
        try {
            Thread.sleep(1500);
            project.kill();
            Thread.sleep(500);
            project = child("project").start().awaitReady(http);
            Thread.sleep(1000);
            ingest.kill();
            Thread.sleep(300);
            ingest = child("ingest").start().awaitReady(http);
            Thread.sleep(1000);
            query.kill();
            query = child("query").start().awaitReady(http);
            Thread.sleep(500);
        } finally {
            running.set(false);
            pool.shutdown();
        }
        List<String> acknowledged = new ArrayList<>();
        for (Future<List<String>> c : clients) {
            acknowledged.addAll(c.get());
        }
        assertTrue(acknowledged.size() > 20, "the load made only " + acknowledged.size() + " writes");
        // One visible write after the restarts proves the projector has applied everything before it.
        post("visible", 0);
        for (String id : acknowledged) {
            int status = status(query, "/xapi/statements?statementId=" + id);
            if (status != 200) {
                String out = query.output();
                assertEquals(200, status, "acknowledged statement " + id + " is lost; the query process said: "
                        + out.substring(Math.max(0, out.length() - 3000)));
            }
        }
        JsonNode page = TestLrs.json(http.send(request(query, "/xapi/statements?limit=1").GET().build(),
                HttpResponse.BodyHandlers.ofString()));
        assertEquals(1, page.get("statements").size());

        for (ChildProcess c : List.of(ingest, project, query)) {
            c.stop();
            assertTrue(c.output().contains("Cairn stopped cleanly"), "cairn " + c.command + " should shut down cleanly on SIGTERM");
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(data, database.url());
    }
}
