package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Query strings as real clients send them. Browsers leave braces, pipes, brackets and backslashes unencoded in a
 * query (the WHATWG URL standard's query percent-encode set); older Java clients put agent JSON in as it is,
 * quotes and colons included (java.net.URL sends what it is given); some send UTF-8 bytes unencoded. Each is
 * decoded as the client meant, on every resource. A raw space is the one thing no parser can read back (RFC 9112
 * section 3.2 says to refuse, not guess): it gets a 400 in the JSON shape saying what to encode.
 */
class UnencodedQueryTest extends LrsOnEachDatabase {
    private static final String AGENT = "{\"objectType\":\"Agent\",\"mbox\":\"mailto:zoë|ü@example.com\"}";
    /** An IRI may hold non-ASCII letters unencoded (RFC 3987), not braces or pipes. */
    private static final String ACTIVITY = "http://example.com/kurs/ünit:a(b)!";
    private static final String AUTH = "Authorization: " + TestLrs.basic(TestLrs.KEY, TestLrs.SECRET)
            + "\r\nX-Experience-API-Version: 1.0.3";

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private RawHttp.Response raw(String method, String pathAndQuery, String body) throws Exception {
        String headers = AUTH + (body.isEmpty() ? "" : "\r\nContent-Type: application/json");
        return RawHttp.send(lrs.cairn.port(), method + " " + pathAndQuery + " HTTP/1.1\r\n" + headers,
                body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void statementQueriesWithUnencodedAgentJsonFindTheStatements() throws Exception {
        String statement = "{\"actor\":" + AGENT + ",\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\"},"
                + "\"object\":{\"id\":\"" + ACTIVITY + "\"}}";
        assertEquals(200, lrs.post(statement).statusCode());
        String id = TestLrs.json(lrs.get("/xapi/statements?agent=" + enc(AGENT))).path("statements").path(0)
                .path("id").asText();
        for (String query : new String[] {"agent=" + AGENT, "agent=" + AGENT + "&activity=" + ACTIVITY,
                "agent=" + AGENT + "&related_activities=true&activity=" + ACTIVITY + "&format=ids"}) {
            RawHttp.Response r = raw("GET", "/xapi/statements?" + query, "");
            assertEquals(200, r.status(), query + ": " + r.body());
            JsonNode page = TestLrs.JSON.readTree(r.body());
            assertEquals(1, page.path("statements").size(), query);
            assertEquals(id, page.path("statements").path(0).path("id").asText(), query);
        }
    }

    @Test
    void documentsWrittenAndReadWithUnencodedParametersAreTheSameDocuments() throws Exception {
        String[][] resources = {
                {"/xapi/activities/state", "activityId=" + ACTIVITY + "&agent=" + AGENT + "&stateId=bookmark|ü",
                        "activityId=" + enc(ACTIVITY) + "&agent=" + enc(AGENT) + "&stateId=" + enc("bookmark|ü")},
                {"/xapi/activities/profile", "activityId=" + ACTIVITY + "&profileId=prefs{1}",
                        "activityId=" + enc(ACTIVITY) + "&profileId=" + enc("prefs{1}")},
                {"/xapi/agents/profile", "agent=" + AGENT + "&profileId=prefs[ü]",
                        "agent=" + enc(AGENT) + "&profileId=" + enc("prefs[ü]")}};
        for (String[] r : resources) {
            RawHttp.Response created = raw("POST", r[0] + "?" + r[1], "{\"page\":3}");
            assertEquals(204, created.status(), r[0] + ": " + created.body());
            var read = lrs.get(r[0] + "?" + r[2]);
            assertEquals(200, read.statusCode(), r[0]);
            assertEquals(3, TestLrs.json(read).path("page").asInt());
            RawHttp.Response rawRead = raw("GET", r[0] + "?" + r[1], "");
            assertEquals(200, rawRead.status(), r[0]);
            assertEquals(read.headers().firstValue("ETag").orElseThrow(), rawRead.header("ETag"), r[0]);
            RawHttp.Response merged = raw("POST", r[0] + "?" + r[1], "{\"more\":true}");
            assertEquals(204, merged.status(), r[0] + ": " + merged.body());
            assertTrue(TestLrs.json(lrs.get(r[0] + "?" + r[2])).path("more").asBoolean(), r[0]);
            RawHttp.Response delete = raw("DELETE", r[0] + "?" + r[1], "");
            assertEquals(204, delete.status(), r[0] + ": " + delete.body());
            assertEquals(404, lrs.get(r[0] + "?" + r[2]).statusCode(), r[0]);
        }
    }

    @Test
    void agentsAndActivitiesAnswerUnencodedParameters() throws Exception {
        String statement = "{\"actor\":" + AGENT.replace("}", ",\"name\":\"Zoë\"}") + ",\"verb\":{\"id\":"
                + "\"http://adlnet.gov/expapi/verbs/completed\"},\"object\":{\"id\":\"" + ACTIVITY + "\","
                + "\"definition\":{\"name\":{\"en-US\":\"Unit ü\"}}}}";
        assertEquals(200, lrs.post(statement).statusCode());
        RawHttp.Response person = raw("GET", "/xapi/agents?agent=" + AGENT, "");
        assertEquals(200, person.status(), person.body());
        assertTrue(person.body().contains("mailto:zoë|ü@example.com"), person.body());
        RawHttp.Response activity = raw("GET", "/xapi/activities?activityId=" + ACTIVITY, "");
        assertEquals(200, activity.status(), activity.body());
        assertEquals(ACTIVITY, TestLrs.JSON.readTree(activity.body()).path("id").asText());
    }

    @Test
    void percentEncodedRequestsWorkAsBefore() throws Exception {
        RawHttp.Response r = raw("GET", "/xapi/statements?agent=" + enc(AGENT).replace("+", "%20"), "");
        assertEquals(200, r.status(), r.body());
        var viaClient = lrs.send(lrs.request("/xapi/agents?agent=" + enc(AGENT)).GET());
        assertEquals(200, viaClient.statusCode());
    }

    @Test
    void aRawSpaceGetsA400InTheJsonShape() throws Exception {
        RawHttp.Response r = raw("GET", "/xapi/statements?agent={\"mbox\": \"mailto:a@example.com\"}", "");
        assertEquals(400, r.status(), r.body());
        assertEquals("application/json", r.header("Content-Type"));
        JsonNode error = TestLrs.JSON.readTree(r.body());
        assertEquals("request.malformed", error.path("error").asText());
        assertTrue(error.path("message").asText().contains("percent-encode spaces"), r.body());
        assertEquals("2.0.0", r.header("X-Experience-API-Version"));
    }

    @Test
    void unencodedInvalidUtf8InAQueryIsRefusedNotGuessed() throws Exception {
        String requestLine = "GET /xapi/agents?agent={\"mbox\":\"mailto:a";
        byte[] bad = {(byte) 0xC3, (byte) 0x28};
        byte[] tail = "@example.com\"} HTTP/1.1\r\n".getBytes(StandardCharsets.UTF_8);
        // a request whose query holds bytes that are not UTF-8 is answered, in the JSON shape, never with a 5xx
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", lrs.cairn.port())) {
            s.setSoTimeout(20_000);
            var out = s.getOutputStream();
            out.write(requestLine.getBytes(StandardCharsets.UTF_8));
            out.write(bad);
            out.write(tail);
            out.write((AUTH + "\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(answer.substring(9, 12));
            assertTrue(status >= 400 && status < 500, answer);
            assertTrue(answer.contains("{\"error\":"), answer);
        }
    }
}
