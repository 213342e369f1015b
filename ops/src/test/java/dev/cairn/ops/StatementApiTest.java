package dev.cairn.ops;

import static dev.cairn.ops.Statements.ATTEMPTED;
import static dev.cairn.ops.Statements.COMPLETED;
import static dev.cairn.ops.Statements.statement;
import static dev.cairn.ops.Statements.withId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The Statement resource over real HTTP, on each database and a real Chronicle log in a temporary directory. */
class StatementApiTest extends LrsOnEachDatabase {

    @Test
    void putThenGetReturnsTheStatementWithStoredAuthorityAndVersionSet() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> put = lrs.put(id, statement("a@example.com", COMPLETED, "http://example.com/a"));
        assertEquals(204, put.statusCode(), put.body());

        HttpResponse<String> get = lrs.get("/xapi/statements?statementId=" + id);
        assertEquals(200, get.statusCode(), get.body());
        JsonNode s = TestLrs.json(get);
        assertEquals(id, s.get("id").asText());
        assertTrue(s.get("stored").asText().endsWith("Z"));
        assertEquals("test-key", s.get("authority").get("account").get("name").asText());
        assertEquals("1.0.0", s.get("version").asText());
        assertEquals("mailto:a@example.com", s.get("actor").get("mbox").asText());
        assertNotNull(get.headers().firstValue("X-Experience-API-Consistent-Through").orElse(null));
        assertEquals("1.0.3", get.headers().firstValue("X-Experience-API-Version").orElseThrow());
    }

    @Test
    void postOfAnArrayReturnsTheIdsInOrder() throws Exception {
        String given = UUID.randomUUID().toString();
        HttpResponse<String> post = lrs.post("[" + statement("a@example.com", COMPLETED, "http://example.com/1") + ","
                + withId(given, "b@example.com", COMPLETED, "http://example.com/2") + ","
                + statement("c@example.com", COMPLETED, "http://example.com/3") + "]");
        assertEquals(200, post.statusCode(), post.body());
        JsonNode ids = TestLrs.json(post);
        assertEquals(3, ids.size());
        assertEquals(given, ids.get(1).asText());
        String[] mboxes = {"mailto:a@example.com", "mailto:b@example.com", "mailto:c@example.com"};
        for (int i = 0; i < 3; i++) {
            JsonNode s = TestLrs.json(lrs.get("/xapi/statements?statementId=" + ids.get(i).asText()));
            assertEquals(mboxes[i], s.get("actor").get("mbox").asText());
        }
    }

    @Test
    void aConflictingPutGets409AndChangesNothing() throws Exception {
        String id = UUID.randomUUID().toString();
        assertEquals(204, lrs.put(id, statement("a@example.com", COMPLETED, "http://example.com/a")).statusCode());
        String before = lrs.get("/xapi/statements?statementId=" + id).body();

        HttpResponse<String> conflict = lrs.put(id, statement("a@example.com", ATTEMPTED, "http://example.com/a"));
        assertEquals(409, conflict.statusCode(), conflict.body());
        assertEquals(before, lrs.get("/xapi/statements?statementId=" + id).body());
    }

    @Test
    void anEquivalentPutIsAcceptedWithoutChange() throws Exception {
        String id = UUID.randomUUID().toString();
        assertEquals(204, lrs.put(id, statement("a@example.com", COMPLETED, "http://example.com/a")).statusCode());
        String before = lrs.get("/xapi/statements?statementId=" + id).body();

        // Verb display and activity definitions are not part of the statement (Data 2.3.1).
        String sameButDisplay = statement("a@example.com", COMPLETED, "http://example.com/a").replace("\"did\"", "\"done\"");
        assertEquals(204, lrs.put(id, sameButDisplay).statusCode());
        assertEquals(before, lrs.get("/xapi/statements?statementId=" + id).body());
    }

    @Test
    void aWrongPasswordGets401() throws Exception {
        HttpResponse<String> r = lrs.send(lrs.request("/xapi/statements")
                .setHeader("Authorization", TestLrs.basic(TestLrs.KEY, "wrong")).GET());
        assertEquals(401, r.statusCode());
    }

    @Test
    void noCredentialsGets401() throws Exception {
        HttpResponse<String> r = lrs.http.send(HttpRequest.newBuilder(java.net.URI.create(lrs.base() + "/xapi/statements"))
                .header("X-Experience-API-Version", "1.0.3").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, r.statusCode());
        assertTrue(r.headers().firstValue("WWW-Authenticate").isPresent());
    }

    @Test
    void aMissingVersionHeaderGets400() throws Exception {
        HttpResponse<String> r = lrs.http.send(HttpRequest.newBuilder(java.net.URI.create(lrs.base() + "/xapi/statements"))
                .header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("X-Experience-API-Version"), r.body());
        assertEquals("2.0.0", r.headers().firstValue("X-Experience-API-Version").orElseThrow(),
                "a request without a version is answered in the configured --xapi-version");
    }

    @Test
    void anUnsupportedVersionHeaderGets400() throws Exception {
        for (String v : new String[] {"0.95", "1.1.0", "3.0.0", "2.1"}) {
            HttpResponse<String> r = lrs.send(lrs.request("/xapi/statements").setHeader("X-Experience-API-Version", v).GET());
            assertEquals(400, r.statusCode(), v);
        }
    }

    @Test
    void versionHeadersAreAnsweredWithTheLatestPatch() throws Exception {
        String[][] cases = {{"1.0", "1.0.3"}, {"1.0.0", "1.0.3"}, {"1.0.9", "1.0.3"}, {"2.0.0", "2.0.0"}};
        for (String[] c : cases) {
            HttpResponse<String> r = lrs.send(lrs.request("/xapi/statements").setHeader("X-Experience-API-Version", c[0]).GET());
            assertEquals(200, r.statusCode(), c[0]);
            assertEquals(c[1], r.headers().firstValue("X-Experience-API-Version").orElseThrow());
        }
    }

    @Test
    void aboutNeedsNoCredentials() throws Exception {
        HttpResponse<String> r = lrs.http.send(HttpRequest.newBuilder(java.net.URI.create(lrs.base() + "/xapi/about"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        JsonNode versions = TestLrs.json(r).get("version");
        assertEquals("1.0.3", versions.get(0).asText());
        assertEquals("2.0.0", versions.get(1).asText());
    }

    @Test
    void malformedJsonGets400WithWhereAndChangesNothing() throws Exception {
        HttpResponse<String> r = lrs.post("[" + statement("a@example.com", COMPLETED, "http://example.com/a") + ",{\"actor\":");
        assertEquals(400, r.statusCode());
        assertEquals("json.malformed", TestLrs.json(r).get("error").asText());
        assertEquals(0, TestLrs.json(lrs.get("/xapi/statements")).get("statements").size());
    }

    @Test
    void anInvalidStatementGets400WithItsJsonPathAndTheBatchIsNotStored() throws Exception {
        String bad = statement("not-an-email", COMPLETED, "http://example.com/a").replace("mailto:not-an-email", "not-an-email");
        HttpResponse<String> r = lrs.post("[" + statement("a@example.com", COMPLETED, "http://example.com/a") + "," + bad + "]");
        assertEquals(400, r.statusCode());
        JsonNode error = TestLrs.json(r);
        assertEquals("$[1].actor.mbox", error.get("where").asText());
        assertTrue(error.get("message").asText().contains("mailto"), error.toString());
        assertEquals(0, TestLrs.json(lrs.get("/xapi/statements")).get("statements").size());
    }

    @Test
    void duplicateIdsInOneBatchGet400() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = lrs.post("[" + withId(id, "a@example.com", COMPLETED, "http://example.com/a") + ","
                + withId(id, "a@example.com", COMPLETED, "http://example.com/a") + "]");
        assertEquals(400, r.statusCode());
        assertEquals("$[1].id", TestLrs.json(r).get("where").asText());
    }

    @Test
    void pagingWithLimit2ThroughMoreVisitsEveryMatchingStatementOnce() throws Exception {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            expected.add(TestLrs.json(lrs.post(statement("p" + i + "@example.com", COMPLETED, "http://example.com/a"))).get(0).asText());
            lrs.post(statement("q" + i + "@example.com", ATTEMPTED, "http://example.com/a"));
        }
        List<String> seen = new ArrayList<>();
        String next = "/xapi/statements?limit=2&verb=" + URLEncoder.encode(COMPLETED, StandardCharsets.UTF_8);
        int pages = 0;
        while (!next.isEmpty()) {
            HttpResponse<String> r = lrs.get(next);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode page = TestLrs.json(r);
            assertTrue(page.get("statements").size() <= 2);
            for (JsonNode s : page.get("statements")) {
                assertEquals(COMPLETED, s.get("verb").get("id").asText());
                seen.add(s.get("id").asText());
            }
            next = page.get("more").asText();
            pages++;
        }
        assertEquals(4, pages);
        assertEquals(7, seen.size());
        assertEquals(expected, new HashSet<>(seen));
    }

    @Test
    void pagesAreNewestFirstUnlessAscending() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(TestLrs.json(lrs.post(statement("o" + i + "@example.com", COMPLETED, "http://example.com/a"))).get(0).asText());
        }
        JsonNode desc = TestLrs.json(lrs.get("/xapi/statements")).get("statements");
        JsonNode asc = TestLrs.json(lrs.get("/xapi/statements?ascending=true")).get("statements");
        for (int i = 0; i < 3; i++) {
            assertEquals(ids.get(2 - i), desc.get(i).get("id").asText());
            assertEquals(ids.get(i), asc.get(i).get("id").asText());
        }
    }

    @Test
    void unknownAndCaseVariantParametersGet400() throws Exception {
        for (String q : new String[] {"?foo=bar", "?Verb=" + COMPLETED, "?LIMIT=1", "?limit=-1", "?since=yesterday",
                "?statementId=not-a-uuid", "?statementId=" + UUID.randomUUID() + "&verb=" + COMPLETED}) {
            HttpResponse<String> r = lrs.get("/xapi/statements" + q);
            assertEquals(400, r.statusCode(), q);
            assertTrue(r.headers().firstValue("X-Experience-API-Consistent-Through").isPresent(), q);
        }
    }

    @Test
    void aStatementNotStoredGets404() throws Exception {
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + UUID.randomUUID()).statusCode());
    }

    @Test
    void aVoidedStatementIsFoundOnlyByVoidedStatementId() throws Exception {
        String target = UUID.randomUUID().toString();
        assertEquals(204, lrs.put(target, statement("a@example.com", COMPLETED, "http://example.com/a")).statusCode());
        String voiding = "{\"actor\":{\"mbox\":\"mailto:admin@example.com\"},\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/voided\"},"
                + "\"object\":{\"objectType\":\"StatementRef\",\"id\":\"" + target + "\"}}";
        HttpResponse<String> posted = lrs.post(voiding);
        assertEquals(200, posted.statusCode());
        String voidingId = TestLrs.json(posted).get(0).asText();

        assertEquals(404, lrs.get("/xapi/statements?statementId=" + target).statusCode());
        assertEquals(200, lrs.get("/xapi/statements?voidedStatementId=" + target).statusCode());
        // The voided statement leaves every filter; the voiding statement matches through it (Comm 2.1.4).
        JsonNode page = TestLrs.json(lrs.get("/xapi/statements?verb=" + URLEncoder.encode(COMPLETED, StandardCharsets.UTF_8)));
        assertEquals(1, page.get("statements").size());
        assertEquals(voidingId, page.get("statements").get(0).get("id").asText());
    }

    @Test
    void limitIsAnyNonNegativeIntegerInAsciiDigitsClampedToTheMaximum() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals(200, lrs.post(statement("l" + i + "@example.com", COMPLETED, "http://example.com/a")).statusCode());
        }
        for (String limit : List.of("2147483648", "99999999999999999999999", "0", "0002")) {
            HttpResponse<String> r = lrs.get("/xapi/statements?limit=" + limit);
            assertEquals(200, r.statusCode(), limit + ": " + r.body());
            assertEquals(limit.equals("0002") ? 2 : 3, TestLrs.json(r).get("statements").size(), limit);
        }
        // +5, -0, the Arabic-Indic digit three, the fullwidth digit five, a space, a decimal point
        for (String limit : List.of("%2B5", "-0", "%D9%A3", "%EF%BC%95", "%205", "5.0", "")) {
            HttpResponse<String> r = lrs.get("/xapi/statements?limit=" + limit);
            assertEquals(400, r.statusCode(), limit);
            assertEquals("parameter limit", TestLrs.json(r).get("where").asText(), limit);
        }
    }

    @Test
    void aContentLengthThatIsNotANonNegativeIntegerInAsciiDigitsGets400AndStoresNothing() throws Exception {
        String body = statement("cl@example.com", COMPLETED, "http://example.com/a");
        for (String length : List.of("+" + body.length(), "-0", body.length() + "x", "99999999999999999999",
                "9223372036854775808", "0x10", body.length() + ".0", "", "\u0663", "\uff15")) {
            RawHttpRequest.Response r = RawHttpRequest.send(lrs.cairn.port(), "POST /xapi/statements HTTP/1.1",
                    "Authorization: " + TestLrs.basic(TestLrs.KEY, TestLrs.SECRET) + "\r\nX-Experience-API-Version: 1.0.3\r\n"
                            + "Content-Type: application/json\r\nContent-Length: " + length + "\r\n", body);
            assertEquals(400, r.status(), "Content-Length: " + length);
        }
        String agent = URLEncoder.encode("{\"mbox\":\"mailto:cl@example.com\"}", StandardCharsets.UTF_8);
        assertEquals(0, TestLrs.json(lrs.get("/xapi/statements?agent=" + agent)).get("statements").size());
    }

    @Test
    void aTimestampWithoutUtcOffsetIs400In20AndReadAsUtcIn103() throws Exception {
        String id = UUID.randomUUID().toString();
        String local = "{\"id\":\"" + id + "\",\"timestamp\":\"2024-05-01T12:00:00.250\","
                + statement("tz@example.com", COMPLETED, "http://example.com/a").substring(1);
        HttpResponse<String> in20 = lrs.send(lrs.request("/xapi/statements").setHeader("X-Experience-API-Version", "2.0.0")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(local)));
        assertEquals(400, in20.statusCode(), in20.body());
        assertEquals("$.timestamp", TestLrs.json(in20).get("where").asText());
        assertTrue(TestLrs.json(in20).get("message").asText().contains("UTC offset"), in20.body());

        assertEquals(200, lrs.post(local).statusCode(), "1.0.3 only recommends the offset");
        assertEquals(204, lrs.put(id, local).statusCode(), "the same statement again is no conflict");
        // Every read re-reads the stored statement, whichever version asks.
        for (String q : List.of("", "&format=ids", "&format=canonical", "&attachments=true")) {
            HttpResponse<String> r = lrs.send(lrs.request("/xapi/statements?statementId=" + id + q)
                    .setHeader("X-Experience-API-Version", "2.0.0").GET());
            assertEquals(200, r.statusCode(), q + ": " + r.body());
        }
        // Read as UTC: the same statement with 12:00:00.250Z is the same statement, with +01:00 a different one.
        assertEquals(204, lrs.put(id, local.replace("12:00:00.250", "12:00:00.250Z")).statusCode());
        assertEquals(409, lrs.put(id, local.replace("12:00:00.250", "12:00:00.250+01:00")).statusCode());
    }

    @Test
    void sinceAndUntilWithoutUtcOffsetAre400In20AndReadAsUtcIn103() throws Exception {
        for (String name : List.of("since", "until")) {
            String q = "/xapi/statements?" + name + "=2024-05-01T12:00:00";
            HttpResponse<String> in20 = lrs.send(lrs.request(q).setHeader("X-Experience-API-Version", "2.0.0").GET());
            assertEquals(400, in20.statusCode(), name);
            assertEquals("parameter " + name, TestLrs.json(in20).get("where").asText());
            assertEquals(200, lrs.get(q).statusCode(), name + " in 1.0.3");
            assertEquals(200, lrs.send(lrs.request(q + "Z").setHeader("X-Experience-API-Version", "2.0.0").GET()).statusCode());
        }
    }
}
