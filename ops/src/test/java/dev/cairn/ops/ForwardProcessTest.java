package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.cairn.store.TestDatabase;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code cairn forward} as a process of its own beside {@code cairn ingest}, killed with SIGKILL in the middle of
 * its batches and started again: every statement reaches the webhook, in log order, and a statement arrives twice
 * only as itself (at least once, never lost, never changed).
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class ForwardProcessTest {
    @Parameter
    String dialect;
    @TempDir
    Path data;
    TestDatabase database;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    final List<ChildProcess> children = new ArrayList<>();
    HttpServer receiver;
    /** Every statement received, in arrival order, with the JSON it came as. */
    final List<String> arrived = new ArrayList<>();
    final Map<String, String> content = new HashMap<>();
    final List<String> changed = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        database = TestDatabase.create(dialect, data);
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            try {
                Thread.sleep(5); // a receiver that takes a moment, so that kills land while batches are in flight
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (arrived) {
                for (JsonNode statement : TestLrs.JSON.readTree(body).get("statements")) {
                    String id = statement.get("id").asText();
                    arrived.add(id);
                    String before = content.putIfAbsent(id, statement.toString());
                    if (before != null && !before.equals(statement.toString())) {
                        changed.add(id);
                    }
                }
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (ChildProcess c : children) {
            c.close();
        }
        receiver.stop(0);
        if (database != null) {
            database.close();
        }
    }

    private ChildProcess child(String command) throws Exception {
        ChildProcess c = ChildProcess.cairn(command, data, database.url());
        children.add(c);
        return c;
    }

    private String post(ChildProcess ingest, int n) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ingest.port
                        + "/xapi/statements")).timeout(Duration.ofSeconds(20))
                .header("X-Experience-API-Version", "2.0.0").header("X-Cairn-Ack", "durable")
                .header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Statements.statement("f" + n + "@example.com",
                        Statements.COMPLETED, "http://example.com/forward"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return TestLrs.json(r).get(0).asText();
    }

    private List<String> arrived() {
        synchronized (arrived) {
            return List.copyOf(arrived);
        }
    }

    @Test
    void killingTheForwarderMidBatchLosesNothingAndRepeatsOnlyTheSameStatements() throws Exception {
        ChildProcess ingest = child("ingest").start().awaitReady(http);
        ImportTestSupport.Run added = ImportTestSupport.run("targets", "add", "hook", "--kind", "webhook", "--url",
                "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook", "--from", "start", "--batch", "4",
                "--max-delay", "10", "--data", data.toString(), "--db", database.url());
        assertEquals(0, added.exitCode(), added.toString());
        ChildProcess forward = child("forward").start().awaitReady(http);
        List<String> posted = new ArrayList<>();
        Random random = new Random(42);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 60; i++) {
                posted.add(post(ingest, posted.size()));
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (arrived().size() < posted.size() - 30 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(random.nextInt(40));
            forward.kill(); // SIGKILL, very likely mid-batch: the receiver takes 5 ms a batch of 4
            forward = child("forward").start().awaitReady(http);
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!new HashSet<>(arrived()).containsAll(posted) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        List<String> got = arrived();
        Set<String> distinct = new HashSet<>(got);
        assertTrue(distinct.containsAll(posted), "every statement arrived: " + distinct.size() + " of "
                + posted.size() + "; the forwarder said: " + forward.output());
        assertEquals(posted.size(), distinct.size(), "nothing else arrived");
        assertTrue(changed.isEmpty(), "a statement sent again is the same statement: " + changed);
        List<String> firstArrivals = new ArrayList<>(new java.util.LinkedHashSet<>(got));
        assertEquals(posted, firstArrivals, "in log order");
        // Every statement can have arrived from a forwarder that was killed before it moved its cursor: the one
        // started after it sends them again, and only then is it caught up.
        String caughtUp = "\"forwarding\":{\"hook\":{\"lagEntries\":0";
        String health = "";
        deadline = System.nanoTime() + 60_000_000_000L;
        while (!health.contains(caughtUp) && System.nanoTime() < deadline) {
            health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + forward.port
                    + "/health/ready")).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
            Thread.sleep(20);
        }
        assertTrue(health.contains(caughtUp), health);
        assertEquals(posted.size(), new HashSet<>(arrived()).size(), "the statements sent again were the same ones");
        assertTrue(changed.isEmpty(), "a statement sent again is the same statement: " + changed);
    }
}
