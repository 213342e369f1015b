package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The NUL character U+0000, which PostgreSQL cannot store in text (found by the fuzzer of issue 19): a statement
 * holding it in a name once stopped the PostgreSQL projector for good, and a document id holding it made a 503.
 * Cairn refuses it with a 400 on both databases, stores nothing, and the writes after it are projected as usual.
 */
class NulCharacterTest extends LrsOnEachDatabase {
    /** JSON's escape of U+0000, spelled so that no Java Unicode escape is read here. */
    private static final String NUL = "\\" + "u0000";

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String named(String id, String name) {
        return "{\"id\":\"" + id + "\",\"actor\":{\"name\":\"" + name + "\",\"mbox\":\"mailto:nul@example.com\"},"
                + "\"verb\":{\"id\":\"" + Statements.COMPLETED + "\"},\"object\":{\"id\":\"http://example.com/nul\"}}";
    }

    @Test
    void aStatementWithNulInAStringIs400AndTheProjectorGoesOn() throws Exception {
        String refused = UUID.randomUUID().toString();
        HttpResponse<String> post = lrs.post(named(refused, "Ada" + NUL + "Lovelace"));
        assertEquals(400, post.statusCode(), post.body());
        assertEquals("json.nul", TestLrs.json(post).get("error").asText());
        assertTrue(TestLrs.json(post).get("message").asText().contains("line 1, column "), post.body());

        String after = UUID.randomUUID().toString();
        HttpResponse<String> next = lrs.put(after, named(after, "Ada Lovelace"));
        assertEquals(204, next.statusCode(), next.body());
        assertTrue(next.headers().firstValue("X-Cairn-Ack").isEmpty(), "the next write is visible, not only durable");
        assertEquals(200, lrs.get("/xapi/statements?statementId=" + after).statusCode());
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + refused).statusCode());
    }

    @Test
    void anEscapedBackslashBeforeTheTextU0000IsNoNulAndIsStoredAsSent() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> put = lrs.put(id, named(id, "back\\\\" + "u0000slash"));
        assertEquals(204, put.statusCode(), put.body());
        JsonNode s = TestLrs.json(lrs.get("/xapi/statements?statementId=" + id));
        assertEquals("back\\" + "u0000slash", s.get("actor").get("name").asText());
    }

    @Test
    void aDocumentIdOrAgentParameterWithNulIs400NamingTheParameter() throws Exception {
        String state = "/xapi/activities/state?activityId=" + enc("http://example.com/nul") + "&agent="
                + enc("{\"mbox\":\"mailto:nul@example.com\"}") + "&stateId=";
        HttpResponse<String> get = lrs.get(state + "doc%00");
        assertEquals(400, get.statusCode(), get.body());
        assertEquals("parameter stateId", TestLrs.json(get).get("where").asText());
        HttpResponse<String> put = lrs.send(lrs.request(state + "doc%00").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{}")));
        assertEquals(400, put.statusCode(), put.body());

        HttpResponse<String> agent = lrs.get("/xapi/agents/profile?profileId=p&agent="
                + enc("{\"account\":{\"homePage\":\"http://example.com\",\"name\":\"a" + NUL + "\"}}"));
        assertEquals(400, agent.statusCode(), agent.body());
        assertEquals("json.nul", TestLrs.json(agent).get("error").asText());

        HttpResponse<String> ok = lrs.get(state + "doc");
        assertEquals(404, ok.statusCode(), "the same request without the NUL is answered: " + ok.body());
    }
}
