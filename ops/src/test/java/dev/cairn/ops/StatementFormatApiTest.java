package dev.cairn.ops;

import static dev.cairn.ops.Statements.COMPLETED;
import static dev.cairn.ops.Statements.withId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** format=ids and format=canonical, HEAD and the statement headers, over real HTTP on each database. */
class StatementFormatApiTest extends LrsOnEachDatabase {

    private static String defining(String id, String names) {
        return "{\"id\":\"" + id + "\",\"actor\":{\"objectType\":\"Agent\",\"name\":\"Ada\",\"mbox\":\"mailto:ada@example.com\"},"
                + "\"verb\":{\"id\":\"" + COMPLETED + "\",\"display\":{\"en-US\":\"completed\",\"de\":\"abgeschlossen\"}},"
                + "\"object\":{\"id\":\"http://example.com/course\",\"definition\":{\"name\":" + names + "}}}";
    }

    @Test
    void formatIdsKeepsOnlyWhatIdentifiesAgentsVerbsAndActivities() throws Exception {
        String id = UUID.randomUUID().toString();
        assertEquals(200, lrs.post(defining(id, "{\"en-US\":\"Course\"}")).statusCode());

        JsonNode single = TestLrs.json(lrs.get("/xapi/statements?statementId=" + id + "&format=ids"));
        assertEquals(List.of("objectType", "mbox"), names(single.get("actor")));
        assertEquals(List.of("id"), names(single.get("verb")));
        assertEquals(List.of("id"), names(single.get("object")));
        assertEquals(id, single.get("id").asText());

        JsonNode page = TestLrs.json(lrs.get("/xapi/statements?format=ids&limit=1"));
        assertEquals(single, page.get("statements").get(0));
    }

    @Test
    void formatCanonicalUsesTheLrsDefinitionInTheLanguageAskedFor() throws Exception {
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        assertEquals(200, lrs.post(defining(first, "{\"en-US\":\"Course\"}")).statusCode());
        // The second statement adds a German name; the canonical definition merges both.
        assertEquals(200, lrs.post(defining(second, "{\"de\":\"Kurs\"}")).statusCode());

        HttpResponse<String> german = lrs.send(lrs.request("/xapi/statements?statementId=" + first + "&format=canonical")
                .header("Accept-Language", "de, en;q=0.5").GET());
        assertEquals(200, german.statusCode(), german.body());
        JsonNode s = TestLrs.json(german);
        assertEquals("{\"de\":\"Kurs\"}", s.get("object").get("definition").get("name").toString());
        assertEquals("{\"de\":\"abgeschlossen\"}", s.get("verb").get("display").toString());
        assertEquals("Ada", s.get("actor").get("name").asText(), "agents are returned as in exact");

        HttpResponse<String> english = lrs.send(lrs.request("/xapi/statements?format=canonical&limit=1&ascending=true")
                .header("Accept-Language", "en-GB").GET());
        JsonNode en = TestLrs.json(english).get("statements").get(0);
        assertEquals("{\"en-US\":\"Course\"}", en.get("object").get("definition").get("name").toString());
    }

    @Test
    void moreLinksKeepTheFormat() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals(200, lrs.post(withId(UUID.randomUUID().toString(), "a@example.com", COMPLETED, "http://example.com/a")).statusCode());
        }
        JsonNode page = TestLrs.json(lrs.get("/xapi/statements?format=ids&limit=2"));
        JsonNode next = TestLrs.json(lrs.get(page.get("more").asText()));
        assertEquals(1, next.get("statements").size());
        assertFalse(next.get("statements").get(0).get("actor").has("name"));
    }

    @Test
    void headAnswersAsGetWithoutABody() throws Exception {
        String id = UUID.randomUUID().toString();
        assertEquals(200, lrs.post(withId(id, "a@example.com", COMPLETED, "http://example.com/a")).statusCode());
        for (String q : List.of("?statementId=" + id, "?limit=1", "?statementId=" + id + "&format=canonical",
                "?statementId=" + UUID.randomUUID())) {
            HttpResponse<String> get = lrs.get("/xapi/statements" + q);
            HttpResponse<String> head = lrs.send(lrs.request("/xapi/statements" + q)
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()));
            assertEquals(get.statusCode(), head.statusCode(), q);
            assertEquals("", head.body(), q);
            assertEquals(get.headers().firstValue("Content-Type"), head.headers().firstValue("Content-Type"), q);
            assertTrue(head.headers().firstValue("X-Experience-API-Consistent-Through").isPresent(), q);
        }
        assertTrue(lrs.get("/xapi/statements?statementId=" + id).headers().firstValue("Last-Modified").isPresent());
    }

    @Test
    void anUnknownFormatGets400WithConsistentThrough() throws Exception {
        HttpResponse<String> r = lrs.get("/xapi/statements?format=full");
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("parameter format"), r.body());
        assertTrue(r.headers().firstValue("X-Experience-API-Consistent-Through").isPresent());
    }

    @Test
    void canonicalAnswersEveryAcceptLanguageWithoutAServerError() throws Exception {
        String id = UUID.randomUUID().toString();
        assertEquals(200, lrs.post(defining(id, "{\"en-US\":\"Course\",\"de\":\"Kurs\"}")).statusCode());
        StringBuilder huge = new StringBuilder("de");
        for (int i = 0; huge.length() < 600_000; i++) {
            huge.append(",x-").append(i % 100);
        }
        for (String header : List.of(";", ";;;", " ", "*", ",", "de;q=0.5;", "de;q=2, ;q=0", "\tde ; q=0.9", huge.toString())) {
            for (String q : List.of("?statementId=" + id + "&format=canonical", "?format=canonical&limit=1")) {
                HttpResponse<String> r = lrs.send(lrs.request("/xapi/statements" + q).header("Accept-Language", header).GET());
                assertEquals(200, r.statusCode(), header.length() > 40 ? "a header of " + header.length() + " chars" : header);
                JsonNode s = TestLrs.json(r);
                JsonNode statement = s.has("statements") ? s.get("statements").get(0) : s;
                assertEquals(1, statement.get("object").get("definition").get("name").size(), header);
            }
        }
    }

    private static List<String> names(JsonNode object) {
        List<String> out = new java.util.ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
