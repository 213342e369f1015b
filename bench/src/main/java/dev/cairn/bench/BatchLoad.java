package dev.cairn.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writers that POST batches of 1 and of 100 statements with their own ids, and optionally single statements with a
 * large attachment (multipart/mixed), each request under a registration of its own, and remember every request they
 * sent and whether it was acknowledged (a 200), so that {@link BatchAudit} can check after a fault that every
 * acknowledged batch is stored whole and no other batch in part.
 */
final class BatchLoad implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Attachments are 0.5 to 4 MiB of random bytes. */
    private static final int MIN_ATTACHMENT = 512 << 10;
    private static final int MAX_ATTACHMENT = 4 << 20;
    /** Attachment bodies are uploaded 64 KiB every 4 ms (16 MB/s), so a fault lands mid-upload as often as not. */
    private static final int UPLOAD_CHUNK = 64 << 10;
    private static final long UPLOAD_PAUSE_MILLIS = 4;

    /**
     * A request a writer sent: its answer's status (-1: no answer, the connection lost) and {@code X-Cairn-Ack} header
     * (null without one), and when it was sent and answered ({@link System#nanoTime}).
     *
     * @param attachment the attachment its one statement carried, or null for a batch of plain statements
     */
    record Batch(String registration, List<String> ids, int status, String ack, long sentNanos, long answeredNanos,
                 Attachment attachment) {
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

    /**
     * An attachment sent: its SHA-256 in hex (the statement's sha2), its length, and whether the whole body had been
     * handed to the connection when the answer (or its failure) came: false is a fault mid-upload.
     */
    record Attachment(String sha2, int length, boolean uploaded) {
    }

    private final String authorization;
    private final boolean untilFirstFailure;
    private final boolean attachments;
    private final ConcurrentLinkedQueue<Batch> batches = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> writers = new ArrayList<>();

    /** Writers of batches of 1 and 100 plain statements, without attachments. */
    BatchLoad(String base, String authorization, int writers, long seed, boolean untilFirstFailure) {
        this(base, authorization, writers, seed, untilFirstFailure, false);
    }

    /**
     * Starts {@code writers} writers against {@code base} (the xAPI URL).
     *
     * @param untilFirstFailure a writer stops at its first unacknowledged batch (the server was killed); otherwise it
     *     pauses 50 ms and goes on (the server refuses for a while: a full disk, a database restart, a restart)
     * @param attachments every other request, from each writer's first, is one statement with an attachment of 0.5
     *     to 4 MiB, uploaded slowly enough that a fault can land in the middle of it
     */
    BatchLoad(String base, String authorization, int writers, long seed, boolean untilFirstFailure, boolean attachments) {
        this.authorization = authorization;
        this.untilFirstFailure = untilFirstFailure;
        this.attachments = attachments;
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

    /**
     * Waits for the first acknowledgement of a batch sent at or after {@code fromNanos} ({@link System#nanoTime}), until
     * {@code deadlineNanos}; returns the nanoseconds from {@code fromNanos} to that answer, or -1 if none came in time.
     */
    long acknowledgedAfter(long fromNanos, long deadlineNanos) throws InterruptedException {
        while (System.nanoTime() - deadlineNanos < 0) {
            long first = batches.stream().filter(b -> b.acknowledged() && b.sentNanos() - fromNanos >= 0)
                    .mapToLong(b -> b.answeredNanos() - fromNanos).min().orElse(-1);
            if (first >= 0) {
                return first;
            }
            Thread.sleep(20);
        }
        return -1;
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
        // A client of its own: a paced upload then never holds back another writer's requests.
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        for (int n = 0; !stop.get(); n++) {
            String registration = UUID.randomUUID().toString();
            List<String> ids = new ArrayList<>();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/statements")).timeout(TIMEOUT)
                    .header("Authorization", authorization).header("X-Experience-API-Version", "2.0.0");
            Upload upload = null;
            if (attachments && n % 2 == 0) {
                byte[] content = new byte[MIN_ATTACHMENT + random.nextInt(MAX_ATTACHMENT - MIN_ATTACHMENT + 1)];
                random.nextBytes(content);
                String sha2 = HexFormat.of().formatHex(FuzzCases.sha256(content));
                String id = UUID.randomUUID().toString();
                ids.add(id);
                String json = statement(id, registration, ",\"attachments\":[{\"usageType\":"
                        + "\"http://example.com/durability/upload\",\"display\":{\"en-US\":\"an upload\"},\"contentType\":"
                        + "\"application/octet-stream\",\"length\":" + content.length + ",\"sha2\":\"" + sha2 + "\"}]");
                upload = new Upload(FuzzCases.multipartBody(json.getBytes(StandardCharsets.UTF_8),
                        "application/octet-stream", sha2, content, true), sha2, content.length);
                Upload body = upload;
                request.header("Content-Type", "multipart/mixed; boundary=" + FuzzCases.BOUNDARY)
                        .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(
                                () -> body), body.bytes.length));
            } else {
                int size = random.nextInt(4) == 0 ? 100 : 1;
                StringBuilder json = new StringBuilder("[");
                for (int i = 0; i < size; i++) {
                    String id = UUID.randomUUID().toString();
                    ids.add(id);
                    json.append(i == 0 ? "" : ",").append(statement(id, registration, ""));
                }
                request.header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json.append(']').toString()));
            }
            int status;
            String ack = null;
            long sent = System.nanoTime();
            try {
                HttpResponse<Void> r = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
                status = r.statusCode();
                ack = r.headers().firstValue("X-Cairn-Ack").orElse(null);
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            Batch batch = new Batch(registration, ids, status, ack, sent, System.nanoTime(), upload == null ? null
                    : new Attachment(upload.sha2, upload.length, upload.available() == 0));
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

    private static String statement(String id, String registration, String more) {
        return "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:durable@example.com\"},\"verb\":{\"id\":"
                + "\"http://adlnet.gov/expapi/verbs/experienced\"},\"object\":{\"id\":\"http://example.com/durability\"},"
                + "\"context\":{\"registration\":\"" + registration + "\"}" + more + "}";
    }

    /** A multipart body read out at {@link #UPLOAD_CHUNK} bytes per {@link #UPLOAD_PAUSE_MILLIS}. */
    private static final class Upload extends InputStream {
        private final byte[] bytes;
        private final String sha2;
        private final int length;
        private final ByteArrayInputStream in;

        Upload(byte[] bytes, String sha2, int length) {
            this.bytes = bytes;
            this.sha2 = sha2;
            this.length = length;
            this.in = new ByteArrayInputStream(bytes);
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int at = bytes.length - in.available();
            if (at > 0 && at % UPLOAD_CHUNK == 0 && in.available() > 0) {
                try {
                    Thread.sleep(UPLOAD_PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
            }
            return in.read(b, off, Math.min(len, UPLOAD_CHUNK - at % UPLOAD_CHUNK));
        }

        @Override
        public int available() {
            return in.available();
        }
    }
}
