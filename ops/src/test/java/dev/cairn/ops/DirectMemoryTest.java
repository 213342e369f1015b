package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Direct (off-heap) buffer memory stays flat however many large bodies a server reads and writes: measured in a
 * child JVM that runs with the memory flags of the {@code cairn} launcher, through its /metrics.
 */
class DirectMemoryTest {
    private static final int BODY = 4 << 20;
    private static final int CLIENTS = 8;
    private static final Pattern DIRECT = Pattern.compile("jvm_buffer_memory_used_bytes\\{id=\"direct\"[^}]*}\\s+(\\S+)");

    @TempDir
    Path data;

    /** The JVM options of MEMORY_FLAGS=( ... ) in the launcher script. */
    static List<String> launcherMemoryFlags() throws Exception {
        String script = Files.readString(Path.of("..", "cairn"));
        Matcher m = Pattern.compile("MEMORY_FLAGS=\\(([^)]*)\\)").matcher(script);
        assertTrue(m.find(), "the launcher sets MEMORY_FLAGS");
        List<String> flags = new ArrayList<>();
        for (String line : m.group(1).split("\n")) {
            String flag = line.replaceAll("#.*", "").trim();
            if (!flag.isEmpty()) {
                flags.add(flag);
            }
        }
        return flags;
    }

    private static long direct(HttpClient http, int port) throws Exception {
        String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = DIRECT.matcher(metrics);
        assertTrue(m.find(), "/metrics reports the direct buffer pool");
        return (long) Double.parseDouble(m.group(1));
    }

    /** Each client stores {@code rounds} documents of {@link #BODY} bytes and reads each back three times. */
    private static void largeRequests(HttpClient http, int port, int rounds, int from) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    for (int r = from; r < from + rounds; r++) {
                        String uri = "http://127.0.0.1:" + port + "/xapi/activities/state?activityId="
                                + URLEncoder.encode("http://example.com/a", StandardCharsets.UTF_8) + "&agent="
                                + URLEncoder.encode("{\"mbox\":\"mailto:a@example.com\"}", StandardCharsets.UTF_8)
                                + "&stateId=s-" + client + "-" + r;
                        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri))
                                .header("X-Experience-API-Version", "1.0.3")
                                .header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET));
                        HttpResponse<String> put = http.send(request.copy().header("Content-Type", "application/octet-stream")
                                .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[BODY])).build(),
                                HttpResponse.BodyHandlers.ofString());
                        assertEquals(204, put.statusCode(), put.body());
                        for (int i = 0; i < 3; i++) {
                            HttpResponse<byte[]> get = http.send(request.copy().GET().build(),
                                    HttpResponse.BodyHandlers.ofByteArray());
                            assertEquals(BODY, get.body().length);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void directMemoryStaysFlatAfterManyLargeRequests() throws Exception {
        List<String> flags = launcherMemoryFlags();
        assertFalse(flags.isEmpty());
        HttpClient http = HttpClient.newHttpClient();
        try (ChildProcess serve = new ChildProcess("serve", data.resolve("serve.out"), "--data", data.toString(),
                "--admin-credential", TestLrs.KEY + ":" + TestLrs.SECRET).jvmOptions(flags).start()) {
            serve.awaitReady(http);
            largeRequests(http, serve.port, 2, 0);
            long warm = direct(http, serve.port);
            largeRequests(http, serve.port, 6, 2);
            long after = direct(http, serve.port);
            System.out.printf("direct buffer memory: %d bytes after %d large requests, %d after %d%n", warm,
                    CLIENTS * 2 * 4, after, CLIENTS * 8 * 4);
            assertTrue(after < 8L << 20, "direct memory is bounded, not a multiple of the bodies: " + after);
            assertTrue(after - warm < 4L << 20, "direct memory grew from " + warm + " to " + after);
        }
    }
}
