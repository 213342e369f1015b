package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** State, Activity Profile and Agent Profile (Comm 2.2 to 2.7 and 3.1), Activities and Agents, over real HTTP. */
class DocumentApiTest extends LrsOnEachDatabase {
    static final String AGENT = URLEncoder.encode("{\"mbox\":\"mailto:ada@example.com\"}", StandardCharsets.UTF_8);
    static final String ACTIVITY = "http://example.com/activities/1";

    static String state(String stateId) {
        return "/xapi/activities/state?activityId=" + ACTIVITY + "&agent=" + AGENT + (stateId == null ? "" : "&stateId=" + stateId);
    }

    static String activityProfile(String profileId) {
        return "/xapi/activities/profile?activityId=" + ACTIVITY + "&profileId=" + profileId;
    }

    static String agentProfile(String profileId) {
        return "/xapi/agents/profile?agent=" + AGENT + "&profileId=" + profileId;
    }

    HttpResponse<String> write(String method, String path, String version, String contentType, String body,
                               String header, String value) throws Exception {
        HttpRequest.Builder r = lrs.request(path).setHeader("X-Experience-API-Version", version)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            r.header("Content-Type", contentType);
        }
        if (header != null) {
            r.header(header, value);
        }
        return lrs.send(r);
    }

    HttpResponse<String> put(String path, String body) throws Exception {
        return write("PUT", path, "2.0.0", "application/json", body, null, null);
    }

    static String etag(String content) throws Exception {
        return "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(content.getBytes(StandardCharsets.UTF_8))) + "\"";
    }

    @Test
    void aDocumentIsReturnedWithItsContentTypeEtagAndLastModified() throws Exception {
        assertEquals(204, write("PUT", state("s1"), "2.0.0", "text/plain", "hello", null, null).statusCode());
        HttpResponse<String> get = lrs.get(state("s1"));
        assertEquals(200, get.statusCode());
        assertEquals("hello", get.body());
        assertEquals("text/plain", get.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(etag("hello"), get.headers().firstValue("ETag").orElseThrow());
        assertTrue(get.headers().firstValue("Last-Modified").isPresent());
    }

    @Test
    void aMissingDocumentGets404() throws Exception {
        assertEquals(404, lrs.get(state("nothing")).statusCode());
        assertEquals(404, lrs.get(agentProfile("nothing")).statusCode());
    }

    @Test
    void putWithAWrongIfMatchGets412AndChangesNothing() throws Exception {
        for (String path : new String[] {state("s"), activityProfile("p"), agentProfile("p")}) {
            assertEquals(204, put(path, "{\"v\":1}").statusCode(), path);
            assertEquals(412, write("PUT", path, "2.0.0", "application/json", "{\"v\":2}", "If-Match", "\"0000\"").statusCode(), path);
            assertEquals("{\"v\":1}", lrs.get(path).body(), path);
            assertEquals(204, write("PUT", path, "2.0.0", "application/json", "{\"v\":3}", "If-Match", etag("{\"v\":1}")).statusCode(), path);
            assertEquals("{\"v\":3}", lrs.get(path).body(), path);
        }
    }

    @Test
    void ifNoneMatchStarFailsWhenTheDocumentExists() throws Exception {
        assertEquals(204, write("PUT", agentProfile("p"), "2.0.0", "application/json", "{}", "If-None-Match", "*").statusCode());
        assertEquals(412, write("PUT", agentProfile("p"), "2.0.0", "application/json", "{\"x\":1}", "If-None-Match", "*").statusCode());
        assertEquals("{}", lrs.get(agentProfile("p")).body());
    }

    @Test
    void putWithoutAPreconditionOnAnExistingProfileGets409() throws Exception {
        for (String version : new String[] {"1.0.3", "2.0.0"}) {
            String path = activityProfile("p" + version);
            assertEquals(204, write("PUT", path, version, "application/json", "{\"v\":1}", "If-None-Match", "*").statusCode());
            HttpResponse<String> conflict = write("PUT", path, version, "application/json", "{\"v\":2}", null, null);
            assertEquals(409, conflict.statusCode(), version);
            assertTrue(conflict.body().contains("If-Match"), conflict.body());
            assertEquals("{\"v\":1}", lrs.get(path).body());
        }
    }

    @Test
    void a103ProfilePutWithoutAPreconditionGets400AndStoresNothing() throws Exception {
        for (String path : new String[] {activityProfile("new"), agentProfile("new")}) {
            HttpResponse<String> r = write("PUT", path, "1.0.3", "application/json", "{}", null, null);
            assertEquals(400, r.statusCode(), path);
            assertTrue(r.body().contains("If-None-Match"), r.body());
            assertEquals(404, lrs.get(path).statusCode());
            assertEquals(204, write("PUT", path, "2.0.0", "application/json", "{}", null, null).statusCode(), path);
        }
    }

    @Test
    void stateMayBeOverwrittenWithoutAPreconditionIn103ButNotIn200() throws Exception {
        assertEquals(204, write("PUT", state("s"), "1.0.3", "application/json", "{\"v\":1}", null, null).statusCode());
        assertEquals(204, write("PUT", state("s"), "1.0.3", "application/json", "{\"v\":2}", null, null).statusCode());
        assertEquals(409, write("PUT", state("s"), "2.0.0", "application/json", "{\"v\":3}", null, null).statusCode());
        assertEquals("{\"v\":2}", lrs.get(state("s")).body());
    }

    @Test
    void postMergesJsonObjectsAtTheTopLevel() throws Exception {
        assertEquals(204, write("POST", state("m"), "2.0.0", "application/json", "{\"a\":1,\"o\":{\"x\":1}}", null, null).statusCode());
        assertEquals(204, write("POST", state("m"), "2.0.0", "application/json", "{\"b\":2,\"o\":{\"y\":2}}", null, null).statusCode());
        JsonNode merged = TestLrs.json(lrs.get(state("m")));
        assertEquals(1, merged.get("a").asInt());
        assertEquals(2, merged.get("b").asInt());
        assertEquals("{\"y\":2}", merged.get("o").toString());
    }

    @Test
    void postOfSomethingElseThanAJsonObjectOntoAJsonDocumentGets400AndChangesNothing() throws Exception {
        assertEquals(204, put(state("m"), "{\"a\":1}").statusCode());
        assertEquals(400, write("POST", state("m"), "2.0.0", "text/plain", "hello", null, null).statusCode());
        assertEquals(400, write("POST", state("m"), "2.0.0", "application/json", "[1,2]", null, null).statusCode());
        assertEquals(400, write("POST", state("m"), "2.0.0", "application/json", "{\"b\":2}{", null, null).statusCode());
        assertEquals("{\"a\":1}", lrs.get(state("m")).body());
    }

    @Test
    void deleteRemovesADocumentAndHonoursIfMatch() throws Exception {
        assertEquals(204, put(agentProfile("d"), "{}").statusCode());
        assertEquals(412, write("DELETE", agentProfile("d"), "2.0.0", null, null, "If-Match", "\"abc\"").statusCode());
        assertEquals(200, lrs.get(agentProfile("d")).statusCode());
        assertEquals(204, write("DELETE", agentProfile("d"), "2.0.0", null, null, null, null).statusCode());
        assertEquals(404, lrs.get(agentProfile("d")).statusCode());
    }

    @Test
    void stateIdsAreListedAndDeletedTogether() throws Exception {
        for (String id : new String[] {"a", "b", "c"}) {
            assertEquals(204, write("PUT", state(id), "1.0.3", "application/json", "{}", null, null).statusCode());
        }
        JsonNode ids = TestLrs.json(lrs.get(state(null)));
        assertEquals("[\"a\",\"b\",\"c\"]", ids.toString());
        assertEquals(204, write("DELETE", state(null), "2.0.0", null, null, null, null).statusCode());
        assertEquals("[]", TestLrs.json(lrs.get(state(null))).toString());
    }

    @Test
    void stateIdsSinceATimeListOnlyNewerDocuments() throws Exception {
        assertEquals(204, put(state("old"), "{}").statusCode());
        String between = lrs.get(state("old")).headers().firstValue("Last-Modified").orElseThrow();
        Thread.sleep(1100); // Last-Modified has whole seconds
        assertEquals(204, put(state("new"), "{}").statusCode());
        String since = java.time.ZonedDateTime.parse(between, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                .plusNanos(999_000_000).toInstant().toString();
        assertEquals("[\"new\"]", TestLrs.json(lrs.get(state(null) + "&since=" + since)).toString());
    }

    @Test
    void badParametersGet400() throws Exception {
        String[] paths = {
            "/xapi/activities/state?activityId=" + ACTIVITY + "&agent=" + AGENT + "&stateId=s&foo=1",
            "/xapi/activities/state?activityId=" + ACTIVITY + "&Agent=" + AGENT + "&stateId=s",
            "/xapi/activities/state?activityId=" + ACTIVITY + "&agent=notjson&stateId=s",
            "/xapi/activities/state?activityId=not-an-iri&agent=" + AGENT + "&stateId=s",
            "/xapi/activities/state?activityId=" + ACTIVITY + "&agent=" + AGENT + "&stateId=s&registration=nope",
            "/xapi/activities/profile?profileId=p",
            "/xapi/agents/profile?agent=" + AGENT + "&activityId=" + ACTIVITY + "&profileId=p",
        };
        for (String path : paths) {
            assertEquals(400, lrs.get(path).statusCode(), path);
            assertEquals(400, put(path, "{}").statusCode(), path);
        }
    }

    @Test
    void activitiesReturnTheCanonicalDefinitionFromStatements() throws Exception {
        assertEquals(200, lrs.post(Statements.statement("ada@example.com", Statements.COMPLETED, ACTIVITY)).statusCode());
        JsonNode activity = TestLrs.json(lrs.get("/xapi/activities?activityId=" + ACTIVITY));
        assertEquals("Activity", activity.get("objectType").asText());
        assertEquals(ACTIVITY, activity.get("id").asText());
        assertEquals("An activity", activity.get("definition").get("name").get("en-US").asText());
        assertEquals(ACTIVITY + "/unknown",
                TestLrs.json(lrs.get("/xapi/activities?activityId=" + ACTIVITY + "/unknown")).get("id").asText());
    }

    @Test
    void agentsReturnAPersonWithTheNamesSeen() throws Exception {
        assertEquals(200, lrs.post(Statements.statement("ada@example.com", Statements.COMPLETED, ACTIVITY)).statusCode());
        JsonNode person = TestLrs.json(lrs.get("/xapi/agents?agent=" + AGENT));
        assertEquals("Person", person.get("objectType").asText());
        assertEquals("[\"Learner\"]", person.get("name").toString());
        assertEquals("[\"mailto:ada@example.com\"]", person.get("mbox").toString());
    }

    @Test
    void documentsSurviveAReplay() throws Exception {
        assertEquals(204, put(state("r"), "{\"a\":1}").statusCode());
        assertEquals(204, write("POST", state("r"), "2.0.0", "application/json", "{\"b\":1}", null, null).statusCode());
        assertEquals(204, put(agentProfile("gone"), "{}").statusCode());
        assertEquals(204, write("DELETE", agentProfile("gone"), "2.0.0", null, null, null, null).statusCode());
        lrs.close();
        lrs = null;
        assertEquals(0, Main.run("replay", "--data", data.toString(), "--db", database.url()));
        lrs = new TestLrs(data, database.url());
        assertEquals("{\"a\":1,\"b\":1}", lrs.get(state("r")).body());
        assertEquals(404, lrs.get(agentProfile("gone")).statusCode());
    }

    static String unique() {
        return UUID.randomUUID().toString();
    }
}
