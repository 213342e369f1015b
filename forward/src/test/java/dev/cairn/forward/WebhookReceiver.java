package dev.cairn.forward;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real HTTP receiver on loopback for the tests: records every POST (body and signature header) and answers each
 * with the next status of a script, then 200.
 */
final class WebhookReceiver implements AutoCloseable {
    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    /** One POST as received, with the status it was answered. */
    record Received(byte[] body, String signature, String timestamp, String version, String authorization,
                    int status) {
        /** The statement ids of the body, in order (each statement's id comes first in its JSON here). */
        List<String> ids() {
            List<String> out = new ArrayList<>();
            Matcher m = ID.matcher(new String(body, StandardCharsets.UTF_8));
            while (m.find()) {
                out.add(m.group(1));
            }
            return out;
        }
    }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Integer> script = new ConcurrentLinkedQueue<>();
    private final List<Received> received = new ArrayList<>();
    /** Characters of padding in each answer's body, to make it as long as a test needs. */
    private volatile int padding;
    /** While set, every answer waits (up to 30 s) until it opens: a target slow to answer. */
    private volatile java.util.concurrent.CountDownLatch held;

    WebhookReceiver(Integer... statuses) {
        script.addAll(List.of(statuses));
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Integer scripted = script.poll();
            int status = scripted == null ? 200 : scripted;
            synchronized (received) {
                received.add(new Received(body, exchange.getRequestHeaders().getFirst(Delivery.SIGNATURE),
                        exchange.getRequestHeaders().getFirst(Delivery.TIMESTAMP),
                        exchange.getRequestHeaders().getFirst("X-Experience-API-Version"),
                        exchange.getRequestHeaders().getFirst("Authorization"), status));
            }
            java.util.concurrent.CountDownLatch gate = held;
            if (gate != null) {
                try {
                    gate.await(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (status == 503 || status == 429) {
                exchange.getResponseHeaders().add("Retry-After", "0");
            }
            byte[] answer = ("{\"answer\":" + status + (padding > 0 ? ",\"pad\":\"" + "x".repeat(padding) + "\"" : "")
                    + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
    }

    /** Makes every answer's body {@code characters} longer. */
    WebhookReceiver padded(int characters) {
        padding = characters;
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    List<Received> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    /** The ids of every statement answered 200, in the order received. */
    List<String> delivered() {
        List<String> out = new ArrayList<>();
        for (Received r : received()) {
            if (r.status() == 200) {
                out.addAll(r.ids());
            }
        }
        return out;
    }

    /** Holds every answer until {@link #release()}. */
    void hold() {
        held = new java.util.concurrent.CountDownLatch(1);
    }

    /** Lets the held answers, and every later one, go. */
    void release() {
        java.util.concurrent.CountDownLatch gate = held;
        held = null;
        if (gate != null) {
            gate.countDown();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
