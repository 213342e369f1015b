package dev.cairn.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a server's {@code /health/ready} every 100 ms on a thread of its own until closed, keeping every answer, so
 * that a fault trial can say what readiness reported while the fault lasted and when it was ready again.
 */
final class HealthWatch implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** One answer: its status (-1: none) and the reason a 503 gave, when ({@link System#nanoTime}) it came. */
    record Sample(long nanos, int status, String reason) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final URI ready;
    private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;

    /** Starts watching {@code server}. */
    HealthWatch(CairnProcess server) {
        this.ready = URI.create("http://127.0.0.1:" + server.port() + "/health/ready");
        this.thread = new Thread(this::watch, "health-watch");
        thread.start();
    }

    private void watch() {
        while (!stop.get()) {
            int status;
            String reason = "";
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(ready).timeout(TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                status = r.statusCode();
                reason = JSON.readTree(r.body()).path("reason").asText("");
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            samples.add(new Sample(System.nanoTime(), status, reason));
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The answers that came between {@code from} and {@code to}. */
    List<Sample> between(long from, long to) {
        return samples.stream().filter(s -> s.nanos() - from >= 0 && to - s.nanos() >= 0).toList();
    }

    /**
     * Waits up to {@code timeoutMillis} for a 200 that came after {@code from}.
     *
     * @return the milliseconds from {@code from} to that answer, or -1 when none came
     */
    long readyAfter(long from, long timeoutMillis) throws InterruptedException {
        long deadline = from + timeoutMillis * 1_000_000;
        while (true) {
            for (Sample s : samples) {
                if (s.status() == 200 && s.nanos() - from >= 0) {
                    return (s.nanos() - from) / 1_000_000;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                return -1;
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join(TIMEOUT.toMillis() * 2);
    }
}
