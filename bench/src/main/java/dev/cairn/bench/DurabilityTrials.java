package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionChecksum;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Durability under {@code kill -9} (issue 19): writers post batches of 1 and of 100 statements with their own ids,
 * each batch under a registration of its own, while the server is killed at a random moment; after each restart
 * every batch it acknowledged must be stored whole, exactly once, and every other batch whole or not at all. After
 * the last trial the tables must equal a fresh replay of the log (content checksum).
 */
final class DurabilityTrials {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int WRITERS = 4;

    /** A batch a writer sent: acknowledged (2xx) or not (an error, no answer, the connection lost). */
    private record Batch(String registration, List<String> ids, boolean acknowledged) {
    }

    private final Path data;
    private final String db;
    private final String credential;
    private final String dialect;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** {@code --trials} kills under each acknowledgement mode, each set followed by the replay comparison. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        List<InvariantRow> rows = new ArrayList<>();
        for (String ack : List.of("durable", "visible")) {
            try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "durability_" + ack)) {
                rows.addAll(new DurabilityTrials(dir.resolve(ack), db.url(), Invariants.CREDENTIAL, dialect)
                        .run(ack, o.intValue("trials"), o.longValue("seed")));
            }
        }
        return rows;
    }

    DurabilityTrials(Path data, String db, String credential, String dialect) {
        this.data = data;
        this.db = db;
        this.credential = credential;
        this.dialect = dialect;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code trials} kills of a server loaded with {@code ack} writes, then the replay comparison. */
    List<InvariantRow> run(String ack, int trials, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int acknowledged = 0;
        int lost = 0;
        int partial = 0;
        int sent = 0;
        Map<String, String> settings = Map.of("CAIRN_DB", db, "CAIRN_ACK", ack);
        for (int t = 0; t < trials; t++) {
            ConcurrentLinkedQueue<Batch> batches = new ConcurrentLinkedQueue<>();
            try (CairnProcess server = CairnProcess.serve(data, credential, settings)) {
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> writers = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    long writerSeed = random.nextLong();
                    Thread writer = new Thread(() -> write(server.url(), new SplittableRandom(writerSeed), stop, batches),
                            "durability-writer-" + w);
                    writer.start();
                    writers.add(writer);
                }
                Thread.sleep(300 + random.nextInt(1200));
                server.close(); // kill -9, mid-batch for whichever writer is sending
                stop.set(true);
                for (Thread writer : writers) {
                    writer.join(TIMEOUT.toMillis());
                }
            }
            try (CairnProcess server = CairnProcess.serve(data, credential, settings)) {
                awaitProjected(server.url());
                for (Batch b : batches) {
                    sent++;
                    int stored = storedOf(server.url(), b);
                    if (b.acknowledged()) {
                        acknowledged++;
                        lost += stored == b.ids().size() ? 0 : 1;
                    } else if (stored != 0 && stored != b.ids().size()) {
                        partial++;
                    }
                }
                server.stop();
            }
        }
        String check = "durability, ack=" + ack + ", " + trials + " trials of kill -9 under load (batches of 1 and 100)";
        List<InvariantRow> rows = new ArrayList<>();
        rows.add(new InvariantRow(dialect, check, "0 acknowledged batches lost or not whole, 0 batches partly stored",
                acknowledged + " acknowledged of " + sent + " sent: " + lost + " lost or not whole, " + partial
                        + " partly stored", lost == 0 && partial == 0 && acknowledged > 0));
        rows.add(replayEqualsLive(ack, trials));
        return rows;
    }

    /** The tables the live server left, against those {@code cairn replay} builds from the log. */
    private InvariantRow replayEqualsLive(String ack, int trials) {
        Map<String, String> live;
        try (Database d = Database.open(db)) {
            live = ProjectionChecksum.of(d);
        }
        int exit;
        try {
            exit = CairnProcess.run(data.resolveSibling(data.getFileName() + "-replay.out"), Map.of(), "replay",
                    "--data", data.toString(), "--db", db);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cairn replay did not run: " + e.getMessage(), e);
        }
        Map<String, String> replayed;
        try (Database d = Database.open(db)) {
            replayed = ProjectionChecksum.of(d);
        }
        String rows = live.get("statement").split(":")[0];
        return new InvariantRow(dialect, "rebuild after the ack=" + ack + " trials: cairn replay against the live tables",
                "equal content checksum of every table", exit != 0 ? "replay exited " + exit : live.equals(replayed)
                ? "equal (" + rows + " statements)" : "different: live " + live + ", replayed " + replayed,
                exit == 0 && live.equals(replayed));
    }

    private void write(String base, SplittableRandom random, AtomicBoolean stop, ConcurrentLinkedQueue<Batch> out) {
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
            boolean acknowledged;
            try {
                HttpResponse<String> r = http.send(request(base + "/statements").header("Content-Type",
                        "application/json").POST(HttpRequest.BodyPublishers.ofString(body.append(']').toString()))
                        .build(), HttpResponse.BodyHandlers.ofString());
                acknowledged = r.statusCode() == 200;
            } catch (IOException e) {
                acknowledged = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            out.add(new Batch(registration, ids, acknowledged));
            if (!acknowledged) {
                return; // the server is gone
            }
        }
    }

    /** How many of the batch's statements the server returns, each counted once by id. */
    private int storedOf(String base, Batch b) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request(base + "/statements?limit=1000&registration=" + b.registration())
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET by registration: " + r.statusCode() + " " + r.body());
        }
        int found = 0;
        for (JsonNode s : JSON.readTree(r.body()).path("statements")) {
            found += b.ids().contains(s.path("id").asText()) ? 1 : 0;
        }
        return found;
    }

    /** Waits until the restarted server has projected the whole log. */
    private void awaitProjected(String base) throws IOException, InterruptedException {
        URI ready = URI.create(base.substring(0, base.length() - "/xapi".length()) + "/health/ready");
        long deadline = System.nanoTime() + TIMEOUT.toNanos() * 4;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(ready).timeout(TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && JSON.readTree(r.body()).path("projectorLagEvents").asLong(-1) == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the restarted server did not project the log within 120 s");
    }

    private HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).header("Authorization", authorization)
                .header("X-Experience-API-Version", "2.0.0");
    }
}
