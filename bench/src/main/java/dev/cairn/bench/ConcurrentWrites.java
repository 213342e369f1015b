package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Invariants of concurrent writes, checked over HTTP against a running Cairn, as clients would break them:
 * read-modify-write of one document (with If-Match no update is lost; without, the table shows how many are), and
 * many clients writing one statement id at once (exactly one body wins, and every read agrees with it).
 */
final class ConcurrentWrites {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How often one client tries an increment that keeps losing to others before the check counts it as failed. */
    private static final int MAX_ATTEMPTS = 10_000;

    private final XapiClient xapi;
    private final String dialect;

    /** The invariant rows of concurrent writes, against one {@code cairn serve}. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "concurrency");
             CairnProcess server = CairnProcess.serve(dir.resolve("data"), Invariants.CREDENTIAL,
                     Map.of("CAIRN_DB", db.url()))) {
            ConcurrentWrites writes = new ConcurrentWrites(server.url(), Invariants.CREDENTIAL, dialect);
            return List.of(writes.documentCounter(o.intValue("clients"), o.intValue("increments"), true),
                    writes.documentCounter(o.intValue("clients"), o.intValue("increments"), false),
                    writes.statementIdRace(o.intValue("racers"), false),
                    writes.statementIdRace(o.intValue("racers"), true));
        }
    }

    ConcurrentWrites(String base, String credential, String dialect) {
        this.xapi = new XapiClient(base, credential);
        this.dialect = dialect;
    }

    /**
     * {@code clients} clients each increment a counter in one State document {@code increments} times by reading it
     * and writing it back. With {@code ifMatch} each write names the ETag it read and retries on 412, so the counter
     * must end at clients × increments; without (xAPI 1.0.3 allows a State PUT without a precondition) the row reports
     * the updates lost, the anomaly the precondition prevents.
     */
    InvariantRow documentCounter(int clients, int increments, boolean ifMatch) throws Exception {
        String version = ifMatch ? "2.0.0" : "1.0.3";
        String query = "/activities/state?activityId=" + XapiClient.encode("http://example.com/invariants/counter")
                + "&agent=" + XapiClient.encode("{\"mbox\":\"mailto:counter@example.com\"}") + "&stateId="
                + UUID.randomUUID();
        HttpResponse<String> created = xapi.send(xapi.request(query, version).header("If-None-Match", "*")
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"n\":0}")));
        check(created, 204);
        List<Integer> conflicts = run(clients, client -> {
            int lost = 0;
            for (int done = 0, attempts = 0; done < increments; attempts++) {
                if (attempts == MAX_ATTEMPTS) {
                    throw new IllegalStateException("client " + client + " made no progress in " + attempts + " tries");
                }
                HttpResponse<String> read = xapi.send(xapi.request(query, version).GET());
                check(read, 200);
                int n = JSON.readTree(read.body()).get("n").asInt();
                HttpRequest.Builder write = xapi.request(query, version).header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"n\":" + (n + 1) + "}"));
                if (ifMatch) {
                    write.header("If-Match", read.headers().firstValue("ETag").orElseThrow());
                }
                HttpResponse<String> written = xapi.send(write);
                if (written.statusCode() == 412 && ifMatch) {
                    lost++;
                    continue;
                }
                check(written, 204);
                done++;
            }
            return lost;
        });
        int refused = conflicts.stream().mapToInt(Integer::intValue).sum();
        int total = clients * increments;
        int n = JSON.readTree(xapi.send(xapi.request(query, version).GET()).body()).get("n").asInt();
        String check = "document counter, " + clients + " clients × " + increments + " read-modify-writes, "
                + (ifMatch ? "If-Match" : "no precondition (1.0.3 State)");
        if (ifMatch) {
            return new InvariantRow(dialect, check, total + " of " + total, n + " of " + total + " (" + refused
                    + " writes refused with 412 and retried)", n == total);
        }
        return new InvariantRow(dialect, check, "updates are lost (the anomaly If-Match prevents)", n + " of " + total
                + ": " + (total - n) + " lost", n <= total);
    }

    /**
     * {@code clients} clients PUT one statement id at the same moment, each with a different body (or all with the
     * same): exactly one is stored, the others get 409 (or all 204), and reads return the one that was stored.
     */
    InvariantRow statementIdRace(int clients, boolean sameBody) throws Exception {
        UUID id = UUID.randomUUID();
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            bodies.add("{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:race@example.com\"},\"verb\":{\"id\":"
                    + "\"http://adlnet.gov/expapi/verbs/attempted\"},\"object\":{\"id\":\"http://example.com/race/"
                    + (sameBody ? "same" : i) + "\"}}");
        }
        List<Integer> statuses = run(clients, client -> xapi.send(xapi.request("/statements?statementId=" + id, "2.0.0")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(bodies.get(client)))).statusCode());
        StatusCounts counts = StatusCounts.of(statuses);
        int winner = statuses.indexOf(204);
        HttpResponse<String> stored = xapi.get("/statements?statementId=" + id);
        String storedObject = stored.statusCode() == 200 ? JSON.readTree(stored.body()).path("object").path("id").asText()
                : "status " + stored.statusCode();
        String winnerObject = winner < 0 ? "none" : JSON.readTree(bodies.get(winner)).path("object").path("id").asText();
        HttpResponse<String> byActivity = xapi.get("/statements?activity=" + XapiClient.encode(storedObject));
        int found = byActivity.statusCode() == 200 ? countWithId(JSON.readTree(byActivity.body()), id) : -1;
        boolean one = sameBody ? counts.counts().equals(Map.of(204, clients))
                : counts.counts().equals(Map.of(204, 1, 409, clients - 1));
        String check = "statement id race, " + clients + " clients PUT one id with " + (sameBody ? "the same body"
                : "different bodies");
        String expected = (sameBody ? clients + " × 204" : "1 × 204, " + (clients - 1) + " × 409")
                + "; one stored, reads agree";
        return new InvariantRow(dialect, check, expected, counts + "; " + found + " stored, "
                + (storedObject.equals(winnerObject) ? "reads agree with the 204" : "read " + storedObject + ", 204 was "
                + winnerObject), one && found == 1 && storedObject.equals(winnerObject));
    }

    private static int countWithId(JsonNode page, UUID id) {
        int n = 0;
        for (JsonNode s : page.path("statements")) {
            if (s.path("id").asText().equals(id.toString())) {
                n++;
            }
        }
        return n;
    }

    /** Runs {@code work} for each client at once (they start together) and returns what each returned, in order. */
    private static <T> List<T> run(int clients, ClientWork<T> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                Callable<T> task = () -> {
                    start.await();
                    return work.run(client);
                };
                results.add(pool.submit(task));
            }
            start.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : results) {
                out.add(f.get(5, TimeUnit.MINUTES));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private interface ClientWork<T> {
        T run(int client) throws Exception;
    }

    private static void check(HttpResponse<String> r, int status) {
        if (r.statusCode() != status) {
            throw new IllegalStateException(r.request().method() + " " + r.request().uri() + ": expected " + status
                    + ", got " + r.statusCode() + " " + r.body());
        }
    }
}
