package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.store.SmallFilesystem;
import dev.cairn.store.TestDatabase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The data directory on a small filesystem that durable batch writes fill up (issue 16, item 8): writes are refused
 * with 507 before the disk is full, never a 500 or no answer; once space is freed the same process takes writes
 * again; every acknowledged statement is readable; a replay gives the live tables; the log is whole.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class FullDiskTest {
    private static final int WRITERS = 4;
    private static final long RESERVE = 8L << 20;

    @Parameter
    String dialect;
    @TempDir
    Path tmp;
    SmallFilesystem fs;
    TestDatabase database;

    @BeforeEach
    void mount() {
        fs = SmallFilesystem.mount(tmp.resolve("fs"), 260);
        database = TestDatabase.create(dialect, fs.dir());
    }

    @AfterEach
    void unmount() {
        if (database != null) {
            database.close();
        }
        fs.close();
    }

    private static String batch(int n) {
        StringBuilder b = new StringBuilder("[");
        String padding = "x".repeat(1000);
        for (int i = 0; i < n; i++) {
            b.append(i > 0 ? "," : "").append("{\"actor\":{\"mbox\":\"mailto:u").append(i % 13)
                    .append("@example.com\"},\"verb\":{\"id\":\"").append(Statements.COMPLETED)
                    .append("\"},\"object\":{\"id\":\"http://example.com/a/").append(i % 7)
                    .append("\"},\"result\":{\"response\":\"").append(padding).append("\"}}");
        }
        return b.append(']').toString();
    }

    private static HttpRequest.Builder durablePost(TestLrs lrs, String body) {
        return lrs.request("/xapi/statements").timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("X-Cairn-Ack", "durable").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    @Test
    void writesAreRefusedBeforeTheDiskIsFullAndResumeOnceSpaceIsFreedWithEveryAcknowledgedStatementReadable()
            throws Exception {
        Path ballast = fs.dir().resolve("ballast");
        // Freed later: room for the replay to build a second database beside the first, with its write-ahead log and
        // shared memory. With 120 MB the writes left ~72 MB to fill and a replay's swap once ran out (SQLITE_IOERR_SHMSIZE);
        // with 140 of 200 MB it did once more, after 31,102 statements (projector transactions of up to 500 ms of writes).
        Files.write(ballast, new byte[200 << 20]);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        Settings settings = TestLrs.settings(fs.dir(), database.url()).with(Map.of("disk-reserve", String.valueOf(RESERVE)));
        try (TestLrs lrs = new TestLrs(settings)) {
            String body = batch(100);
            ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                done.add(writers.submit(() -> {
                    int refused = 0;
                    for (int i = 0; i < 2_000 && refused < 5; i++) {
                        HttpResponse<String> r = lrs.send(durablePost(lrs, body));
                        statuses.merge(r.statusCode(), 1, Integer::sum);
                        if (r.statusCode() == 200) {
                            TestLrs.json(r).forEach(id -> acknowledged.add(id.asText()));
                        } else {
                            assertTrue(r.statusCode() == 507 || r.statusCode() == 503
                                    && r.headers().firstValue("Retry-After").isPresent(), r.statusCode() + " " + r.body());
                            assertTrue(r.body().contains("\"error\""), r.body());
                            refused++;
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
            writers.shutdown();
            assertTrue(statuses.getOrDefault(507, 0) > 0, "writes were refused with 507: " + statuses);
            assertTrue(acknowledged.size() > 1_000, "acknowledged " + acknowledged.size() + ": " + statuses);

            HttpResponse<String> notReady = lrs.get("/health/ready");
            assertEquals(503, notReady.statusCode());
            assertTrue(notReady.body().contains("below reserve"), notReady.body());

            Files.delete(ballast);
            HttpResponse<String> resumed = awaitStatus(() -> lrs.send(durablePost(lrs, batch(1))), 200);
            TestLrs.json(resumed).forEach(id -> acknowledged.add(id.asText()));
            awaitStatus(() -> lrs.get("/health/ready"), 200);
            // Visible once the projector has applied every entry before it.
            TestLrs.json(awaitStatus(() -> lrs.post(batch(1)), 200)).forEach(id -> acknowledged.add(id.asText()));

            Set<String> readable = allIds(lrs);
            Set<String> missing = new HashSet<>(acknowledged);
            missing.removeAll(readable);
            assertTrue(missing.isEmpty(), missing.size() + " of " + acknowledged.size() + " acknowledged are unreadable");
        }
        RestartAndReplayTest.assertReplayRebuildsTheSameTables(fs.dir(), database.url());
        assertEquals(0, Main.run("log", "check", "--data", fs.dir().toString(), "--db", database.url()));
    }

    private interface Call {
        HttpResponse<String> send() throws Exception;
    }

    private static HttpResponse<String> awaitStatus(Call call, int status) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        HttpResponse<String> r;
        do {
            r = call.send();
            if (r.statusCode() == status) {
                return r;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return fail("still " + r.statusCode() + " after 30 s: " + r.body());
    }

    private static Set<String> allIds(TestLrs lrs) throws Exception {
        Set<String> ids = new HashSet<>();
        String next = "/xapi/statements?limit=1000";
        while (next != null && !next.isEmpty()) {
            JsonNode page = TestLrs.json(lrs.get(next));
            page.get("statements").forEach(s -> ids.add(s.get("id").asText()));
            next = page.path("more").asText(null);
        }
        return ids;
    }
}
