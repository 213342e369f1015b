package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.bench.BatchLoad.Batch;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Collection;

/**
 * Checks what a server holds of the batches a {@link BatchLoad} sent: every acknowledged batch whole, exactly once,
 * and every other batch whole or not at all. Counts add up over several audits (one per trial).
 */
final class BatchAudit {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(BatchLoad.TIMEOUT).build();
    private final String authorization;
    private int sent;
    private int acknowledged;
    private int lost;
    private int partial;

    BatchAudit(String authorization) {
        this.authorization = authorization;
    }

    /** Waits until the server at {@code base} has projected the whole log, then reads back every batch. */
    void audit(String base, Collection<Batch> batches) throws IOException, InterruptedException {
        awaitProjected(base);
        for (Batch b : batches) {
            sent++;
            int stored = storedOf(base, b);
            if (b.acknowledged()) {
                acknowledged++;
                lost += stored == b.ids().size() ? 0 : 1;
            } else if (stored != 0 && stored != b.ids().size()) {
                partial++;
            }
        }
    }

    /** The row: none lost, none partial, and something was acknowledged at all (a load that wrote nothing proves nothing). */
    InvariantRow row(String dialect, String check) {
        return new InvariantRow(dialect, check, "0 acknowledged batches lost or not whole, 0 batches partly stored",
                acknowledged + " acknowledged of " + sent + " sent: " + lost + " lost or not whole, " + partial
                        + " partly stored", lost == 0 && partial == 0 && acknowledged > 0);
    }

    /** How many of the batch's statements the server returns, each counted once by id. */
    private int storedOf(String base, Batch b) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/statements?limit=1000&registration="
                + b.registration())).timeout(BatchLoad.TIMEOUT).header("Authorization", authorization)
                .header("X-Experience-API-Version", "2.0.0").GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET by registration: " + r.statusCode() + " " + r.body());
        }
        int found = 0;
        for (JsonNode s : JSON.readTree(r.body()).path("statements")) {
            found += b.ids().contains(s.path("id").asText()) ? 1 : 0;
        }
        return found;
    }

    /** Waits until the server has applied the whole log ({@code /health/ready} reports no lag). */
    void awaitProjected(String base) throws IOException, InterruptedException {
        URI ready = URI.create(base.substring(0, base.length() - "/xapi".length()) + "/health/ready");
        long deadline = System.nanoTime() + BatchLoad.TIMEOUT.toNanos() * 4;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(ready).timeout(BatchLoad.TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && JSON.readTree(r.body()).path("projectorLagEvents").asLong(-1) == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the server did not project the log within 120 s");
    }
}
