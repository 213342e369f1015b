package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GET /statements pages are bounded by bytes as well as by count (--max-page-bytes): a page whose statements, in the
 * format asked for, and attachments would pass the bound ends early with a more link, always holding one statement;
 * following the links returns every statement once, in order.
 */
class PageBytesApiTest extends LrsOnEachDatabase {
    private static final long MAX_PAGE_BYTES = 40_000;
    private static final String ACTIVITY = "http://example.com/course/large-definition";

    @BeforeEach
    void restartWithASmallPageBound() throws Exception {
        lrs.close();
        Settings d = TestLrs.settings(data, database.url());
        lrs = new TestLrs(d.with(Map.of("max-page-bytes", String.valueOf(MAX_PAGE_BYTES))));
    }

    /** Every page of {@code query} (following more links): the response bodies. */
    private List<HttpResponse<String>> pages(String query) throws Exception {
        List<HttpResponse<String>> pages = new ArrayList<>();
        HttpResponse<String> page = lrs.get("/xapi/statements" + query);
        while (true) {
            assertEquals(200, page.statusCode(), page.body());
            pages.add(page);
            String more = jsonPart(page).get("more").asText();
            if (more.isEmpty()) {
                return pages;
            }
            page = lrs.get(more);
        }
    }

    /** The StatementResult of a page, from a JSON or a multipart/mixed response. */
    private static JsonNode jsonPart(HttpResponse<String> page) throws Exception {
        String type = page.headers().firstValue("Content-Type").orElseThrow();
        if (!type.startsWith("multipart/mixed")) {
            return TestLrs.json(page);
        }
        String part = page.body().split("--" + type.substring("multipart/mixed; boundary=".length()))[1];
        return TestLrs.JSON.readTree(part.substring(part.indexOf("\r\n\r\n") + 4).trim());
    }

    private static List<String> ids(List<HttpResponse<String>> pages) throws Exception {
        List<String> ids = new ArrayList<>();
        for (HttpResponse<String> page : pages) {
            for (JsonNode s : jsonPart(page).get("statements")) {
                ids.add(s.get("id").asText());
            }
        }
        return ids;
    }

    /** Each page holds one statement, or its body stays within the bound (with room for the envelope). */
    private static void assertBounded(List<HttpResponse<String>> pages, String what) throws Exception {
        for (HttpResponse<String> page : pages) {
            int statements = jsonPart(page).get("statements").size();
            long bytes = page.body().getBytes(StandardCharsets.UTF_8).length;
            assertTrue(statements == 1 || bytes <= MAX_PAGE_BYTES + 1_000, what + ": " + statements
                    + " statements in " + bytes + " bytes");
        }
    }

    private List<String> storeLarge(int count, int size) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            assertEquals(204, lrs.put(id, "{\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\""
                    + Statements.COMPLETED + "\"},\"object\":{\"id\":\"http://example.com/a\"},\"result\":{\"response\":\""
                    + "r".repeat(size) + "\"}}").statusCode());
            ids.add(0, id); // newest first
        }
        return ids;
    }

    @Test
    void largeStatementsArePagedWithinTheBoundAndMoreReturnsTheRest() throws Exception {
        List<String> stored = storeLarge(10, 15_000);
        stored.addAll(0, storeLarge(1, 60_000)); // alone past the bound: a page of its own
        for (String query : List.of("", "?limit=0", "?format=ids", "?verb=" + URLEncoder.encode(Statements.COMPLETED,
                StandardCharsets.UTF_8))) {
            List<HttpResponse<String>> pages = pages(query);
            assertBounded(pages, query);
            assertEquals(stored, ids(pages), query + ": each statement once, in order");
            assertTrue(pages.size() >= 6, query + ": " + pages.size() + " pages");
        }
        List<HttpResponse<String>> ascending = pages("?ascending=true");
        assertBounded(ascending, "ascending");
        List<String> oldestFirst = new ArrayList<>(stored);
        Collections.reverse(oldestFirst);
        assertEquals(oldestFirst, ids(ascending));
    }

    /** A canonical definition can be far larger than the statement that names its activity: the rendered bytes count. */
    @Test
    void canonicalPagesAreBoundedByTheirRenderedBytes() throws Exception {
        assertEquals(204, lrs.put(UUID.randomUUID().toString(), "{\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"" + Statements.COMPLETED + "\"},\"object\":{\"id\":\"" + ACTIVITY + "\","
                + "\"definition\":{\"description\":{\"en-US\":\"" + "d".repeat(15_000) + "\"}}}}").statusCode());
        for (int i = 0; i < 10; i++) {
            assertEquals(200, lrs.post("{\"actor\":{\"mbox\":\"mailto:b@example.com\"},\"verb\":{\"id\":\""
                    + Statements.ATTEMPTED + "\"},\"object\":{\"id\":\"" + ACTIVITY + "\"}}").statusCode());
        }
        String query = "?verb=" + URLEncoder.encode(Statements.ATTEMPTED, StandardCharsets.UTF_8);
        List<HttpResponse<String>> exact = pages(query);
        assertEquals(1, exact.size(), "ten small statements fit in one exact page");
        List<HttpResponse<String>> canonical = pages(query + "&format=canonical");
        assertBounded(canonical, "canonical");
        assertTrue(canonical.size() >= 4, canonical.size() + " canonical pages");
        assertEquals(ids(exact), ids(canonical));
        assertTrue(canonical.get(0).body().contains("d".repeat(15_000)), "the canonical definition is rendered");
    }

    @Test
    void attachmentsCountTowardsThePageBound() throws Exception {
        List<String> stored = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            byte[] content = ("attachment " + i + " ").repeat(1_500).getBytes(StandardCharsets.UTF_8); // ~20 KB
            String id = UUID.randomUUID().toString();
            String hash = AttachmentApiTest.sha256(content);
            byte[] body = AttachmentApiTest.multipart(AttachmentApiTest.statement(id, AttachmentApiTest.attachment(
                    "http://example.com/usage", "text/plain", content, null)), new Object[] {"text/plain", hash, content});
            assertEquals(200, lrs.send(lrs.request("/xapi/statements").header("Content-Type",
                    "multipart/mixed; boundary=" + AttachmentApiTest.BOUNDARY)
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body))).statusCode());
            stored.add(0, id);
        }
        assertEquals(1, pages("").size(), "the statements alone fit in one page");
        List<HttpResponse<String>> pages = pages("?attachments=true");
        assertBounded(pages, "attachments=true");
        assertTrue(pages.size() >= 4, pages.size() + " pages");
        assertEquals(stored, ids(pages));
        for (HttpResponse<String> page : pages) {
            for (JsonNode s : jsonPart(page).get("statements")) {
                String hash = s.get("attachments").get(0).get("sha2").asText();
                assertTrue(page.body().contains("X-Experience-API-Hash: " + hash), "each statement's attachment is sent with it");
            }
        }
    }
}
