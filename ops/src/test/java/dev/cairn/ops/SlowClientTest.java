package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Clients that send a request a byte at a time lose their connection when the header or body deadline passes,
 * whatever their pace; past the connection cap new clients wait; a normal client is served throughout.
 */
class SlowClientTest {
    private static final int HEADER_TIMEOUT = 1000;
    private static final int BODY_TIMEOUT = 1500;
    private static final String STATEMENT = "{\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
            + "\"verb\":{\"id\":\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\"}}";

    @TempDir
    Path data;

    private TestLrs start(int maxConnections) throws Exception {
        return new TestLrs(TestLrs.settings(data, null).with(Map.of("header-timeout",
                String.valueOf(HEADER_TIMEOUT), "body-timeout", String.valueOf(BODY_TIMEOUT), "max-connections",
                String.valueOf(maxConnections))));
    }

    private static String post(String framing) {
        return "POST /xapi/statements HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                + TestLrs.basic(TestLrs.KEY, TestLrs.SECRET) + "\r\nX-Experience-API-Version: 2.0.0\r\n"
                + "Content-Type: application/json\r\n" + framing + "\r\n";
    }

    private static final String ABOUT = "GET /xapi/about HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

    /** Sends {@code step} every 200 ms until the server closes the connection; the milliseconds that took. */
    private static long trickleUntilClosed(RawConnection c, String step, long giveUpMillis) throws IOException {
        long start = System.nanoTime();
        while (System.nanoTime() - start < giveUpMillis * 1_000_000) {
            try {
                c.send(step);
            } catch (IOException e) {
                break;
            }
            if (c.closedWithin(200)) {
                break;
            }
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    void aConnectionTricklingItsHeadersIsClosedAfterTheHeaderTimeout() throws Exception {
        try (TestLrs lrs = start(1000); RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send("GET /xapi/about HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            long took = trickleUntilClosed(c, "X-Slow: 1\r\n", 10_000);
            assertTrue(took >= HEADER_TIMEOUT - 300 && took < HEADER_TIMEOUT + 2500, "closed after " + took + " ms");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Content-Length: 1000", "Transfer-Encoding: chunked"})
    void aConnectionTricklingItsBodyGets408AfterTheBodyTimeout(String framing) throws Exception {
        try (TestLrs lrs = start(1000); RawConnection c = new RawConnection(lrs.cairn.port())) {
            boolean chunked = framing.contains("chunked");
            c.send(post(framing + "\r\n"));
            long start = System.nanoTime();
            RawConnection.Response r = null;
            while (r == null && System.nanoTime() - start < 10_000_000_000L) {
                c.send(chunked ? "1\r\nx\r\n" : "x");
                r = c.read(200);
            }
            long took = (System.nanoTime() - start) / 1_000_000;
            assertNotNull(r, "no answer in 10 s");
            assertEquals(408, r.status(), r.body());
            assertEquals("request.timeout", TestLrs.JSON.readTree(r.body()).get("error").asText());
            assertTrue(took >= BODY_TIMEOUT - 300 && took < BODY_TIMEOUT + 2500, "answered after " + took + " ms");
            assertTrue(c.closedWithin(3000));
        }
    }

    @Test
    void anUnreadBodyTrickledAfterItsAnswerLosesTheConnection() throws Exception {
        try (TestLrs lrs = start(1000); RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send("GET /xapi/about HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n");
            assertEquals(200, c.read(5000).status());
            long took = trickleUntilClosed(c, "x", 10_000);
            assertTrue(took < BODY_TIMEOUT + 2500, "closed after " + took + " ms");
        }
    }

    @Test
    void aNormalClientIsServedWhileSlowClientsTrickle() throws Exception {
        try (TestLrs lrs = start(1000)) {
            ExecutorService slow = Executors.newFixedThreadPool(40);
            List<Future<Long>> closed = new ArrayList<>();
            try {
                for (int i = 0; i < 40; i++) {
                    boolean headers = i % 2 == 0;
                    closed.add(slow.submit(() -> {
                        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
                            c.send(headers ? "GET /xapi/about HTTP/1.1\r\n" : post("Content-Length: 1000\r\n"));
                            return trickleUntilClosed(c, headers ? "X-Slow: 1\r\n" : "x", 10_000);
                        }
                    }));
                }
                for (int i = 0; i < 20; i++) {
                    long start = System.nanoTime();
                    var r = lrs.send(lrs.request("/xapi/statements?statementId=" + UUID.randomUUID())
                            .header("Content-Type", "application/json").timeout(Duration.ofSeconds(5))
                            .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(STATEMENT)));
                    assertEquals(204, r.statusCode(), r.body());
                    assertTrue(System.nanoTime() - start < 2_000_000_000L, "a write took over 2 s");
                    Thread.sleep(100);
                }
                for (Future<Long> f : closed) {
                    assertTrue(f.get() < Math.max(HEADER_TIMEOUT, BODY_TIMEOUT) + 3000, "a slow client held on");
                }
            } finally {
                slow.shutdownNow();
            }
        }
    }

    @Test
    void pastTheConnectionCapNewConnectionsWaitWhileOpenOnesAreServed() throws Exception {
        int cap = 2 * Math.max(Runtime.getRuntime().availableProcessors(), 2); // Undertow's I/O threads share it
        try (TestLrs lrs = start(cap)) {
            List<RawConnection> open = new ArrayList<>();
            try {
                for (int i = 0; i < cap; i++) {
                    RawConnection c = new RawConnection(lrs.cairn.port());
                    open.add(c);
                    assertEquals(200, c.send(ABOUT).read(5000).status());
                }
                try (RawConnection waiting = new RawConnection(lrs.cairn.port())) {
                    waiting.send(ABOUT);
                    assertNull(waiting.read(1000), "a connection past the cap is not served yet");
                    for (RawConnection c : open) {
                        assertEquals(200, c.send(ABOUT).read(5000).status(), "open connections are served");
                    }
                    open.remove(0).close();
                    RawConnection.Response r = waiting.read(5000);
                    assertNotNull(r, "served once a connection closed");
                    assertEquals(200, r.status());
                }
            } finally {
                for (RawConnection c : open) {
                    c.close();
                }
            }
        }
    }
}
