package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The load generator's closed loop, against a server that answers as the test says. */
class SelectorWritersTest {
    private HttpServer server;
    private final AtomicInteger received = new AtomicInteger();

    private int serve(Consumer<HttpExchange> answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/xapi/statements", exchange -> {
            exchange.getRequestBody().readAllBytes();
            received.incrementAndGet();
            answer.accept(exchange);
        });
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        return server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static void answer(HttpExchange exchange, int status, String body) {
        try {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, b.length);
            exchange.getResponseBody().write(b);
            exchange.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static SelectorWriters.Counts run(int port, int connections, long timeoutMillis) throws Exception {
        SelectorWriters w = new SelectorWriters(port, "k:s", "/xapi/statements", "X-Cairn-Ack: durable\r\n",
                () -> "{\"id\":1}".getBytes(StandardCharsets.US_ASCII), timeoutMillis);
        long start = System.nanoTime();
        return w.run(connections, start, start, start + 500_000_000L, 1);
    }

    @Test
    void everyAnsweredRequestIsCountedWithItsLatency() throws Exception {
        int port = serve(e -> answer(e, 200, "[\"a\"]"));
        SelectorWriters.Counts counts = run(port, 4, 5_000);
        assertTrue(counts.requests() > 4, "requests counted: " + counts.requests());
        assertEquals(counts.requests(), counts.latencies().count());
        assertTrue(received.get() >= counts.requests());
        assertEquals(0, counts.lost());
    }

    @Test
    void anAnswerOtherThan200StopsTheRunWithItsBody() throws Exception {
        int port = serve(e -> answer(e, 400, "{\"error\":\"bad\"}"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(port, 2, 5_000));
        assertTrue(e.getMessage().contains("400") && e.getMessage().contains("bad"), e.getMessage());
    }

    @Test
    void aRequestNotAnsweredInTimeIsLostAndItsConnectionOpenedAgain() throws Exception {
        int port = serve(e -> {
            if (received.get() == 1) {
                return; // the first request is never answered
            }
            answer(e, 200, "[]");
        });
        SelectorWriters.Counts counts = run(port, 1, 200);
        assertEquals(1, counts.lost());
        assertTrue(counts.requests() > 0, "requests counted after the reconnect: " + counts.requests());
    }
}
