package dev.cairn.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writers that POST batches of 1 and of 100 statements with their own ids, each batch under a registration of its
 * own, and remember every batch they sent and whether it was acknowledged (a 200), so that {@link BatchAudit} can
 * check after a fault that every acknowledged batch is stored whole and no other batch in part.
 */
final class BatchLoad implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * A batch a writer sent: its answer's status (-1: no answer, the connection lost) and {@code X-Cairn-Ack} header
     * (null without one), and when it was sent and answered ({@link System#nanoTime}).
     */
    record Batch(String registration, List<String> ids, int status, String ack, long sentNanos, long answeredNanos) {
        /** A 200: every statement of the batch must be stored. */
        boolean acknowledged() {
            return status == 200;
        }

        /** Whether it was sent at or after {@code from} and answered by {@code to}. */
        boolean within(long from, long to) {
            return sentNanos - from >= 0 && to - answeredNanos >= 0;
        }

        long millis() {
            return (answeredNanos - sentNanos) / 1_000_000;
        }
    }

    private final String authorization;
    private final boolean untilFirstFailure;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final ConcurrentLinkedQueue<Batch> batches = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> writers = new ArrayList<>();

    /**
     * Starts {@code writers} writers against {@code base} (the xAPI URL).
     *
     * @param untilFirstFailure a writer stops at its first unacknowledged batch (the server was killed); otherwise it
     *     pauses 50 ms and goes on (the server refuses for a while: a full disk, a database restart)
     */
    BatchLoad(String base, String authorization, int writers, long seed, boolean untilFirstFailure) {
        this.authorization = authorization;
        this.untilFirstFailure = untilFirstFailure;
        SplittableRandom random = new SplittableRandom(seed);
        for (int w = 0; w < writers; w++) {
            SplittableRandom own = random.split();
            Thread writer = new Thread(() -> write(base, own), "batch-writer-" + w);
            writer.start();
            this.writers.add(writer);
        }
    }

    /** The batches answered so far, while the writers go on. */
    List<Batch> answered() {
        return List.copyOf(batches);
    }

    /** Stops the writers and waits for their last requests; returns every batch sent. */
    List<Batch> stop() throws InterruptedException {
        stop.set(true);
        for (Thread writer : writers) {
            writer.join(TIMEOUT.toMillis() * 2);
        }
        return List.copyOf(batches);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private void write(String base, SplittableRandom random) {
        while (!stop.get()) {
            int size = random.nextInt(4) == 0 ? 100 : 1;
            String registration = UUID.randomUUID().toString();
            List<String> ids = new ArrayList<>();
            StringBuilder body = new StringBuilder("[");
            for (int i = 0; i < size; i++) {
                String id = UUID.randomUUID().toString();
                ids.add(id);
                body.append(i == 0 ? "" : ",").append("{\"id\":\"").append(id).append("\",\"actor\":{\"mbox\":"
                        + "\"mailto:durable@example.com\"},\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/experienced\"},"
                        + "\"object\":{\"id\":\"http://example.com/durability\"},\"context\":{\"registration\":\"")
                        .append(registration).append("\"}}");
            }
            int status;
            String ack = null;
            long sent = System.nanoTime();
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(base + "/statements")).timeout(TIMEOUT)
                        .header("Authorization", authorization).header("X-Experience-API-Version", "2.0.0")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.append(']').toString())).build(),
                        HttpResponse.BodyHandlers.discarding());
                status = r.statusCode();
                ack = r.headers().firstValue("X-Cairn-Ack").orElse(null);
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            Batch batch = new Batch(registration, ids, status, ack, sent, System.nanoTime());
            batches.add(batch);
            if (!batch.acknowledged()) {
                if (untilFirstFailure) {
                    return; // the server is gone
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
