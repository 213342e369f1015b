package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.store.PostgresServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL server under Cairn restarts, or stays down for more than a minute, while clients write: every
 * connection Cairn holds recovers by itself, health says not ready (and why) while the projector cannot move and
 * ready again after, {@code ack=visible} writers get a bounded answer, and every acknowledged statement is readable
 * afterwards without restarting Cairn. The server is the test's own, so the shared one stays up.
 */
class DatabaseOutageTest {
    /** How long an ack=visible write waits here before it is answered as durable. */
    private static final long VISIBLE_TIMEOUT_MILLIS = 1_500;
    private static final long READY_LAG_MILLIS = 2_000;

    @TempDir
    Path data;
    PostgresServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    final List<AutoCloseable> started = new ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = PostgresServer.start();
    }

    @AfterEach
    void stopAll() throws Exception {
        Collections.reverse(started);
        for (AutoCloseable c : started) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** One write's answer, as a client saw it. */
    private record Answer(String ack, int status, String ackHeader, String retryAfter, long millis, List<String> ids,
                          String body) {
    }

    private HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30))
                .header("X-Experience-API-Version", "2.0.0")
                .header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET));
    }

    /** POSTs five statements with their ids and waits for the answer (a client that gets none fails the test). */
    private Answer post(int port, String ack) throws Exception {
        List<String> ids = new ArrayList<>();
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < 5; i++) {
            String id = UUID.randomUUID().toString();
            ids.add(id);
            body.append(i == 0 ? "" : ",").append(Statements.withId(id, "outage@example.com", Statements.COMPLETED,
                    "http://example.com/outage"));
        }
        return post(port, ack, ids, body.append(']').toString());
    }

    /** POSTs the statements of an earlier answer again. */
    private Answer repost(int port, Answer earlier) throws Exception {
        return post(port, earlier.ack(), earlier.ids(), earlier.body());
    }

    private Answer post(int port, String ack, List<String> ids, String body) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> r = http.send(request(port, "/xapi/statements").header("Content-Type", "application/json")
                .header("X-Cairn-Ack", ack).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(ack, r.statusCode(), r.headers().firstValue("X-Cairn-Ack").orElse(null),
                r.headers().firstValue("Retry-After").orElse(null), (System.nanoTime() - start) / 1_000_000, ids, body);
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(request(port, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Writes with {@code ack} until stopped, one request at a time; every answer is kept. */
    private Future<List<Answer>> writer(ExecutorService pool, AtomicBoolean running, int port, String ack) {
        return pool.submit(() -> {
            List<Answer> answers = new ArrayList<>();
            while (running.get()) {
                Answer a = post(port, ack);
                answers.add(a);
                if (a.status() >= 500) {
                    Thread.sleep(50);
                }
            }
            return answers;
        });
    }

    /** Reads /health/ready every 100 ms until stopped. */
    private Future<List<HttpResponse<String>>> healthProbe(ExecutorService pool, AtomicBoolean running, int port) {
        return pool.submit(() -> {
            List<HttpResponse<String>> seen = new ArrayList<>();
            while (running.get()) {
                seen.add(get(port, "/health/ready"));
                Thread.sleep(100);
            }
            return seen;
        });
    }

    /** Waits until {@code /health/ready} answers 200 with nothing left to apply. */
    private void awaitReady(int port, long seconds) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        HttpResponse<String> r;
        do {
            r = get(port, "/health/ready");
            if (r.statusCode() == 200 && TestLrs.json(r).get("projectorLagEvents").asLong() == 0) {
                return;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("not ready " + seconds + " s after the database came back: " + r.body());
    }

    private Set<String> storedIds(String url) throws Exception {
        Set<String> ids = new HashSet<>();
        try (Connection c = DriverManager.getConnection(url); java.sql.Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM statement")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private static List<String> acknowledged(List<Answer> answers) {
        List<String> ids = new ArrayList<>();
        for (Answer a : answers) {
            if (a.status() == 200) {
                ids.addAll(a.ids());
            }
        }
        return ids;
    }

    @Test
    void aRestartOfTheDatabaseUnderLoadLeavesEveryAcknowledgedStatementReadableWithoutRestartingCairn() throws Exception {
        Settings settings = TestLrs.settings(data, server.url()).with(Map.of("ready-lag",
                String.valueOf(READY_LAG_MILLIS), "visible-timeout", String.valueOf(VISIBLE_TIMEOUT_MILLIS)));
        Cairn cairn = Cairn.start(settings, Clock.systemUTC());
        started.add(cairn);
        int port = cairn.port();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Future<List<Answer>>> writers = new ArrayList<>();
        for (String ack : List.of("durable", "visible", "durable", "visible")) {
            writers.add(writer(pool, running, port, ack));
        }
        Future<List<HttpResponse<String>>> probe = healthProbe(pool, running, port);
        List<Answer> answers = new ArrayList<>();
        List<HttpResponse<String>> health;
        try {
            Thread.sleep(1_000);
            server.restart(3_000);
            Thread.sleep(3_000);
        } finally {
            running.set(false);
            pool.shutdown();
        }
        for (Future<List<Answer>> w : writers) {
            answers.addAll(w.get());
        }
        health = probe.get();
        awaitReady(port, 30);

        boolean sawNotReady = false;
        for (HttpResponse<String> h : health) {
            JsonNode body = TestLrs.json(h);
            if (h.statusCode() == 503) {
                assertTrue(body.get("reason").asText().startsWith("projector: "), h.body());
                sawNotReady = true;
            } else {
                assertEquals(200, h.statusCode(), h.body());
                assertTrue(body.get("projectorLagMillis").asLong() <= READY_LAG_MILLIS, h.body());
            }
        }
        assertTrue(sawNotReady, "health said not ready while the projector could not write");
        boolean answeredDurable = false;
        for (Answer a : answers) {
            assertTrue(a.status() == 200 || a.status() >= 500, a.toString()); // refused while down: not stored
            if (a.ack().equals("visible") && a.status() == 200) {
                assertTrue(a.millis() < VISIBLE_TIMEOUT_MILLIS + 3_000, "a bounded wait: " + a);
                answeredDurable |= "durable".equals(a.ackHeader());
            }
        }
        assertTrue(answeredDurable, "a visible write that waited past the bound was answered as durable");

        List<String> acknowledged = acknowledged(answers);
        assertTrue(acknowledged.size() > 100, "writes went on around the restart: " + acknowledged.size());
        Set<String> stored = storedIds(server.url());
        for (String id : acknowledged) {
            assertTrue(stored.contains(id), "acknowledged statement " + id + " is in the tables");
        }
        for (int i = 0; i < acknowledged.size(); i += Math.max(1, acknowledged.size() / 100)) {
            HttpResponse<String> r = get(port, "/xapi/statements?statementId=" + acknowledged.get(i));
            assertEquals(200, r.statusCode(), r.body());
        }
        Answer after = post(port, "visible");
        assertEquals(200, after.status());
        assertEquals(null, after.ackHeader(), "visible again at once");
    }

    private ChildProcess child(String command) throws Exception {
        ChildProcess c = new ChildProcess(command, data.resolve(command + ".out"), "--data", data.toString(), "--db",
                server.url(), "--admin-credential", TestLrs.KEY + ":" + TestLrs.SECRET, "--visible-timeout",
                String.valueOf(VISIBLE_TIMEOUT_MILLIS), "--ready-lag", String.valueOf(READY_LAG_MILLIS));
        started.add(c);
        return c.start();
    }

    /** Waits until {@code /health/ready} of {@code p} is 503 with a reason that starts with {@code reason}. */
    private void awaitNotReady(ChildProcess p, String reason) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        HttpResponse<String> r;
        do {
            r = get(p.port, "/health/ready");
            if (r.statusCode() == 503 && TestLrs.json(r).get("reason").asText().startsWith(reason)) {
                return;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("cairn " + p.command + " not reported '" + reason + "...': " + r.body());
    }

    private static int count(String text, String phrase) {
        Matcher m = Pattern.compile(Pattern.quote(phrase)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void aDatabaseDownForMoreThanAMinuteWedgesNoProcessOfASplitDeployment() throws Exception {
        ChildProcess ingest = child("ingest");
        ChildProcess project = child("project");
        ChildProcess query = child("query");
        for (ChildProcess p : List.of(ingest, project, query)) {
            p.awaitReady(http);
        }
        Answer before = post(ingest.port, "visible");
        assertEquals(200, before.status());
        assertEquals(200, get(query.port, "/xapi/statements?statementId=" + before.ids().get(0)).statusCode());

        server.stop();
        long stoppedAt = System.nanoTime();
        Answer during = post(ingest.port, "visible"); // its credential is still remembered: the log takes it
        assertEquals(200, during.status(), "durable in the log");
        assertEquals("durable", during.ackHeader(), "but not visible, which the answer says");
        assertTrue(during.millis() < VISIBLE_TIMEOUT_MILLIS + 3_000, "a bounded wait: " + during);
        Answer again = repost(ingest.port, before); // stored ids: the sequencer must ask the database
        assertEquals(503, again.status(), "not stored, and the client is told so: " + again);
        assertTrue(again.retryAfter() != null, again.toString());
        awaitNotReady(project, "projector: database unreachable since ");
        awaitNotReady(ingest, "watermark poll: database unreachable since ");
        awaitNotReady(query, "watermark poll: database unreachable since ");
        long downMillis = 65_000 - (System.nanoTime() - stoppedAt) / 1_000_000;
        Thread.sleep(Math.max(0, downMillis));
        for (ChildProcess p : List.of(ingest, project, query)) {
            assertEquals(503, get(p.port, "/health/ready").statusCode(), p.command + " after a minute down");
        }

        server.startAgain();
        for (ChildProcess p : List.of(ingest, project, query)) {
            awaitReady(p.port, 30);
        }
        for (String id : during.ids()) {
            HttpResponse<String> r = get(query.port, "/xapi/statements?statementId=" + id);
            assertEquals(200, r.statusCode(), "written while the database was down, readable now: " + r.body());
        }
        Answer after = post(ingest.port, "visible");
        assertEquals(200, after.status());
        assertEquals(null, after.ackHeader(), "visible again at once");
        assertEquals(200, get(query.port, "/xapi/statements?statementId=" + after.ids().get(0)).statusCode());
        assertEquals(200, repost(ingest.port, before).status(), "the sequencer's checks reach the database again");

        String projected = project.output();
        assertEquals(1, count(projected, "projection failed at watermark"), "one line per outage:\n" + projected);
        assertEquals(1, count(projected, "projection works again"), projected);
        for (ChildProcess p : List.of(ingest, query)) {
            String out = p.output();
            assertEquals(1, count(out, "watermark poll failed"), p.command + ": one line per outage:\n" + out);
            assertEquals(1, count(out, "the watermark can be read again"), out);
        }
    }
}
