package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.TestDatabase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writes as large as the default --max-body allows are stored, beside concurrent small ones that all succeed once;
 * a write the log cannot hold gets 413 and changes nothing. None of them gets a 500.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class LargeWriteTest {
    private static final int MAX_BODY = 16 << 20; // the default --max-body

    @Parameter
    String dialect;
    @TempDir
    Path data;
    TestDatabase database;
    TestLrs lrs;

    @BeforeEach
    void start() throws Exception {
        database = TestDatabase.create(dialect, data);
        lrs = new TestLrs(TestLrs.settings(data, database.url()).with(Map.of("max-body",
                String.valueOf(MAX_BODY))));
    }

    @AfterEach
    void stop() {
        if (lrs != null) {
            lrs.close();
        }
        if (database != null) {
            database.close();
        }
    }

    /** A statement of exactly {@code size} bytes. */
    private static String statementOfSize(String id, int size) {
        String head = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":"
                + "\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\",\"definition\":{\"description\":"
                + "{\"en\":\"";
        String tail = "\"}}}}";
        return head + "x".repeat(size - head.length() - tail.length()) + tail;
    }

    private CompletableFuture<HttpResponse<String>> put(String id, String statement) {
        return lrs.http.sendAsync(lrs.request("/xapi/statements?statementId=" + id).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(statement)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The statements stored, counted through every page (a page ends early at a large statement). */
    private int storedStatements() throws Exception {
        int count = 0;
        String next = "/xapi/statements?format=ids&limit=0";
        while (!next.isEmpty()) {
            com.fasterxml.jackson.databind.JsonNode page = TestLrs.json(lrs.get(next));
            count += page.get("statements").size();
            next = page.path("more").asText("");
        }
        return count;
    }

    @org.junit.jupiter.api.Test
    void aStatementAndADocumentOfTheLargestBodyAreStoredBesideConcurrentSmallWrites() throws Exception {
        String largeId = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> large = put(largeId, statementOfSize(largeId, MAX_BODY));
        CompletableFuture<HttpResponse<String>> document = lrs.http.sendAsync(lrs.request(
                "/xapi/activities/profile?activityId=http://example.com/a&profileId=large")
                .header("Content-Type", "application/octet-stream").header("If-None-Match", "*")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[MAX_BODY])).build(), HttpResponse.BodyHandlers.ofString());
        List<String> smallIds = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> small = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String id = UUID.randomUUID().toString();
            smallIds.add(id);
            small.add(put(id, statementOfSize(id, 400)));
        }
        assertEquals(204, large.get().statusCode(), large.get().body());
        assertEquals(204, document.get().statusCode(), document.get().body());
        for (CompletableFuture<HttpResponse<String>> r : small) {
            assertEquals(204, r.get().statusCode(), r.get().body());
        }
        assertEquals(MAX_BODY + 200, lrs.get("/xapi/statements?statementId=" + largeId).body().length(), 200);
        for (String id : smallIds) {
            assertEquals(200, lrs.get("/xapi/statements?statementId=" + id).statusCode());
        }
        assertEquals(61, storedStatements(), "each write stored once");
        HttpResponse<byte[]> profile = lrs.http.send(lrs.request(
                "/xapi/activities/profile?activityId=http://example.com/a&profileId=large").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(MAX_BODY, profile.body().length);
    }

    @org.junit.jupiter.api.Test
    void aBatchThatTheLogCannotHoldOnceStampedGets413AndNothingOfItIsStored() throws Exception {
        // Small statements grow the most when the LRS adds id, stored, timestamp, authority and version.
        String one = "{\"actor\":{\"mbox\":\"mailto:a@b.c\"},\"verb\":{\"id\":\"http://e.c/v\"},\"object\":{\"id\":\"http://e.c/a\"}}";
        StringBuilder batch = new StringBuilder(MAX_BODY).append('[');
        while (batch.length() + one.length() + 2 < MAX_BODY) {
            batch.append(batch.length() > 1 ? "," : "").append(one);
        }
        batch.append(']');
        HttpResponse<String> r = lrs.post(batch.toString());
        assertEquals(413, r.statusCode(), r.body());
        assertEquals("request.too_large", TestLrs.json(r).get("error").asText());
        assertTrue(TestLrs.json(r).get("message").asText().contains("smaller batches"), r.body());
        assertEquals(0, storedStatements());
        assertEquals(200, lrs.post(one).statusCode(), "the next write is stored");
    }
}
