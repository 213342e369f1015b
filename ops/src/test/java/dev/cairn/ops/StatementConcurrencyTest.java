package dev.cairn.ops;

import static dev.cairn.ops.Statements.COMPLETED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** 16 clients PUT one statement id at once: the sequencer decides, so exactly one body wins. */
class StatementConcurrencyTest extends LrsOnEachDatabase {
    static final int CLIENTS = 16;

    /** Sends the bodies as PUTs of {@code id}, all released at once; returns the statuses in body order. */
    private List<Integer> putAtOnce(String id, List<String> bodies) {
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Integer>> sent = new ArrayList<>();
        for (String body : bodies) {
            sent.add(CompletableFuture.supplyAsync(() -> {
                try {
                    go.await();
                    return lrs.put(id, body).statusCode();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, r -> new Thread(r).start()));
        }
        go.countDown();
        return sent.stream().map(CompletableFuture::join).toList();
    }

    @Test
    void differentBodiesForOneIdStoreExactlyOne() throws Exception {
        String id = UUID.randomUUID().toString();
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            bodies.add(Statements.statement("c" + i + "@example.com", COMPLETED, "http://example.com/a"));
        }
        List<Integer> statuses = putAtOnce(id, bodies);
        assertEquals(1, statuses.stream().filter(s -> s == 204).count(), statuses.toString());
        assertEquals(CLIENTS - 1, statuses.stream().filter(s -> s == 409).count(), statuses.toString());

        String winner = "mailto:c" + statuses.indexOf(204) + "@example.com";
        JsonNode stored = TestLrs.json(lrs.get("/xapi/statements?statementId=" + id));
        assertEquals(winner, stored.get("actor").get("mbox").asText());
        JsonNode page = TestLrs.json(lrs.get("/xapi/statements?verb=" + COMPLETED));
        assertEquals(1, page.get("statements").size());
        String agent = java.net.URLEncoder.encode("{\"mbox\":\"" + winner + "\"}", java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, TestLrs.json(lrs.get("/xapi/statements?agent=" + agent)).get("statements").size());
    }

    @Test
    void theSameBodyForOneIdSucceedsForAllAndStoresOne() throws Exception {
        String id = UUID.randomUUID().toString();
        String body = Statements.statement("same@example.com", COMPLETED, "http://example.com/a");
        List<Integer> statuses = putAtOnce(id, java.util.Collections.nCopies(CLIENTS, body));
        assertEquals(List.of(204), statuses.stream().distinct().toList(), statuses.toString());
        HttpResponse<String> page = lrs.get("/xapi/statements");
        assertEquals(1, TestLrs.json(page).get("statements").size(), page.body());
    }
}
