package dev.cairn.ops;

import static dev.cairn.ops.Statements.COMPLETED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The 1.0.3 Alternate Request Syntax (Comm 1.3) and its rejection under 2.0, over real HTTP on each database. */
class AlternateSyntaxApiTest extends LrsOnEachDatabase {

    static String form(String... pairs) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            b.append(i == 0 ? "" : "&").append(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return b.toString();
    }

    /** A POST with only a form body: its headers, even the credentials and the version, travel as form fields. */
    HttpResponse<String> alternate(String query, String form) throws Exception {
        return lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/xapi/statements?" + query))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPutAndAGetTravelAsFormsIn103() throws Exception {
        String id = UUID.randomUUID().toString();
        String auth = TestLrs.basic(TestLrs.KEY, TestLrs.SECRET);
        HttpResponse<String> put = alternate("method=PUT", form("statementId", id, "Authorization", auth,
                "X-Experience-API-Version", "1.0.3", "content", Statements.statement("a@example.com", COMPLETED, "http://example.com/a")));
        assertEquals(204, put.statusCode(), put.body());

        HttpResponse<String> get = alternate("method=GET", form("statementId", id, "Authorization", auth,
                "X-Experience-API-Version", "1.0.3"));
        assertEquals(200, get.statusCode(), get.body());
        assertTrue(get.body().contains(id), get.body());
        assertEquals("1.0.3", get.headers().firstValue("X-Experience-API-Version").orElseThrow());
        assertTrue(get.headers().firstValue("X-Experience-API-Consistent-Through").isPresent());
    }

    @Test
    void documentResourcesTakeTheSyntaxToo() throws Exception {
        String auth = TestLrs.basic(TestLrs.KEY, TestLrs.SECRET);
        String agent = "{\"mbox\":\"mailto:a@example.com\"}";
        HttpResponse<String> put = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/xapi/activities/state?method=PUT"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form("activityId", "http://example.com/a", "agent", agent,
                        "stateId", "bookmark", "Authorization", auth, "X-Experience-API-Version", "1.0.3",
                        "Content-Type", "text/plain", "content", "page 7"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(204, put.statusCode(), put.body());
        HttpResponse<String> get = lrs.get("/xapi/activities/state?activityId=" + URLEncoder.encode("http://example.com/a",
                StandardCharsets.UTF_8) + "&agent=" + URLEncoder.encode(agent, StandardCharsets.UTF_8) + "&stateId=bookmark");
        assertEquals(200, get.statusCode(), get.body());
        assertEquals("page 7", get.body());
        assertTrue(get.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
    }

    @Test
    void brokenAlternateRequestsGet400() throws Exception {
        String auth = TestLrs.basic(TestLrs.KEY, TestLrs.SECRET);
        String id = UUID.randomUUID().toString();
        String content = Statements.statement("a@example.com", COMPLETED, "http://example.com/a");
        assertEquals(400, alternate("method=PUT&statementId=" + id, form("Authorization", auth,
                "X-Experience-API-Version", "1.0.3", "content", content)).statusCode(), "parameters belong in the form");
        assertEquals(400, alternate("method=PUT", form("statementId", id, "Authorization", auth,
                "X-Experience-API-Version", "0.8", "content", content)).statusCode(), "form headers are checked as headers");
        assertEquals(400, alternate("method=PUT", form("statementId", id, "Authorization", auth,
                "X-Experience-API-Version", "1.0.3")).statusCode(), "no content");
        assertEquals(400, alternate("method=PATCH", form("Authorization", auth, "X-Experience-API-Version", "1.0.3")).statusCode());
        HttpResponse<String> notPost = lrs.send(lrs.request("/xapi/statements?method=POST")
                .header("Content-Type", "application/x-www-form-urlencoded").PUT(HttpRequest.BodyPublishers.ofString("content=x")));
        assertEquals(400, notPost.statusCode());
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode());
    }

    @Test
    void xapi20HasNoAlternateSyntax() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = lrs.send(lrs.request("/xapi/statements?method=PUT")
                .setHeader("X-Experience-API-Version", "2.0.0")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form("statementId", id, "content",
                        Statements.statement("a@example.com", COMPLETED, "http://example.com/a")))));
        assertEquals(400, r.statusCode(), r.body());
        assertEquals("2.0.0", r.headers().firstValue("X-Experience-API-Version").orElseThrow());
        assertTrue(r.headers().firstValue("X-Experience-API-Consistent-Through").isPresent());
        HttpResponse<String> formVersion = alternate("method=GET", form("Authorization",
                TestLrs.basic(TestLrs.KEY, TestLrs.SECRET), "X-Experience-API-Version", "2.0.0"));
        assertEquals(400, formVersion.statusCode());
    }
}
