package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * CORS on every resource (the Fetch standard): preflights answered before authentication, and the allow-origin and
 * exposed headers on every response, whatever its status.
 */
class CorsApiTest extends LrsOnEachDatabase {
    private static final String ORIGIN = "https://content.example.org";
    private static final List<String> RESOURCES = List.of("/xapi/statements", "/xapi/statements/more/abc",
            "/xapi/activities/state", "/xapi/activities/profile", "/xapi/agents/profile", "/xapi/activities",
            "/xapi/agents", "/xapi/about", "/health/live", "/health/ready", "/metrics", "/xapi/no-such-resource");

    private HttpResponse<String> preflight(String path, String method) throws Exception {
        return lrs.http.send(HttpRequest.newBuilder(java.net.URI.create(lrs.base() + path))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", ORIGIN)
                .header("Access-Control-Request-Method", method)
                .header("Access-Control-Request-Headers", "authorization, content-type, x-experience-api-version, if-match")
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyResourceAnswersAPreflightOfEveryMethodWithoutCredentials() throws Exception {
        for (String path : RESOURCES) {
            for (String method : List.of("GET", "HEAD", "PUT", "POST", "DELETE")) {
                HttpResponse<String> r = preflight(path, method);
                assertEquals(204, r.statusCode(), method + " " + path + ": " + r.body());
                assertEquals(ORIGIN, r.headers().firstValue("Access-Control-Allow-Origin").orElse(null), path);
                assertTrue(r.headers().firstValue("Access-Control-Allow-Methods").orElse("").contains(method), path);
                String headers = r.headers().firstValue("Access-Control-Allow-Headers").orElse("");
                for (String h : List.of("Authorization", "Content-Type", "X-Experience-API-Version", "If-Match",
                        "If-None-Match", "X-Cairn-Ack")) {
                    assertTrue(headers.contains(h), h + " on " + path);
                }
                assertTrue(r.headers().firstValue("Access-Control-Allow-Credentials").isEmpty(), "not with any origin");
                assertEquals("7200",
                        r.headers().firstValue("Access-Control-Max-Age").orElse(null));
            }
        }
    }

    @Test
    void aPreflightChangesNothing() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = preflight("/xapi/statements?statementId=" + id, "PUT");
        assertEquals(204, r.statusCode());
        assertEquals("", r.body());
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode());
    }

    private HttpResponse<String> fromContent(HttpRequest.Builder request) throws Exception {
        return lrs.send(request.header("Origin", ORIGIN));
    }

    private static void assertCorsHeaders(HttpResponse<String> r, String what) {
        assertEquals(ORIGIN, r.headers().firstValue("Access-Control-Allow-Origin").orElse(null), what);
        assertTrue(r.headers().firstValue("Access-Control-Allow-Credentials").isEmpty(), what);
        String exposed = r.headers().firstValue("Access-Control-Expose-Headers").orElse("");
        for (String h : List.of("ETag", "Last-Modified", "Content-Type", "X-Experience-API-Version",
                "X-Experience-API-Consistent-Through")) {
            assertTrue(exposed.contains(h), h + " exposed on " + what);
        }
        assertTrue(r.headers().allValues("Vary").toString().contains("Origin"), what);
    }

    @Test
    void everyKindOfAnswerCarriesTheAllowAndExposeHeaders() throws Exception {
        String id = UUID.randomUUID().toString();
        String statement = Statements.statement("cors@example.com", Statements.COMPLETED, "http://example.com/a");
        String state = "/xapi/activities/state?activityId=http%3A%2F%2Fexample.com%2Fa&agent="
                + "%7B%22mbox%22%3A%22mailto%3Acors%40example.com%22%7D&stateId=s";
        record Case(String what, int status, HttpRequest.Builder request) {
        }
        List<Case> cases = List.of(
                new Case("200 stored", 204, lrs.request("/xapi/statements?statementId=" + id)
                        .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(statement))),
                new Case("200 read", 200, lrs.request("/xapi/statements?statementId=" + id).GET()),
                new Case("409 conflict", 409, lrs.request("/xapi/statements?statementId=" + id)
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(Statements.statement("other@example.com", Statements.COMPLETED, "http://example.com/a")))),
                new Case("400 bad parameter", 400, lrs.request("/xapi/statements?limit=x").GET()),
                new Case("404 no statement", 404, lrs.request("/xapi/statements?statementId="
                        + UUID.randomUUID()).GET()),
                new Case("404 no resource", 404, lrs.request("/xapi/nothing").GET()),
                new Case("412 precondition", 412, lrs.request(state).header("Content-Type", "application/json")
                        .header("If-Match", "\"nope\"").PUT(HttpRequest.BodyPublishers.ofString("{}"))),
                new Case("413 too large", 413, lrs.request("/xapi/statements").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[(int) TestLrs.MAX_BODY + 1]))),
                new Case("401 no credential", 401, HttpRequest.newBuilder(java.net.URI.create(lrs.base()
                        + "/xapi/statements")).header("X-Experience-API-Version", "1.0.3").GET()),
                new Case("400 no version", 400, HttpRequest.newBuilder(java.net.URI.create(lrs.base()
                        + "/xapi/statements")).header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET)).GET()),
                new Case("200 about", 200, HttpRequest.newBuilder(java.net.URI.create(lrs.base() + "/xapi/about")).GET()),
                new Case("200 health", 200, HttpRequest.newBuilder(java.net.URI.create(lrs.base() + "/health/live")).GET()));
        for (Case c : cases) {
            HttpResponse<String> r = fromContent(c.request());
            assertEquals(c.status(), r.statusCode(), c.what() + ": " + r.body());
            assertCorsHeaders(r, c.what());
            assertTrue(r.headers().firstValue("X-Experience-API-Version").isPresent(), "every response names a version: "
                    + c.what());
            if (c.status() >= 400) {
                assertTrue(r.body().startsWith("{\"error\":"), c.what() + ": " + r.body());
            }
        }
    }

    @Test
    void aBrowserNavigationIsNotAskedForBasicCredentialsAClientIs() throws Exception {
        // A browser caches what a person types into a Basic prompt and attaches it to other sites' requests here.
        HttpRequest.Builder noCredential = HttpRequest.newBuilder(java.net.URI.create(lrs.base() + "/xapi/statements"))
                .header("X-Experience-API-Version", "1.0.3");
        HttpResponse<String> navigation = lrs.send(noCredential.copy().header("Sec-Fetch-Mode", "navigate").GET());
        assertEquals(401, navigation.statusCode());
        String challenge = navigation.headers().firstValue("WWW-Authenticate").orElseThrow();
        assertTrue(!challenge.regionMatches(true, 0, "Basic", 0, 5), challenge);
        HttpResponse<String> client = lrs.send(noCredential.GET());
        assertEquals(401, client.statusCode());
        assertTrue(client.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Basic "));
    }

    @Test
    void onlyAListedOriginMaySendTheBrowsersOwnCredentials() throws Exception {
        lrs.close();
        lrs = new TestLrs(data, database.url(), "https://lms.example.com");
        HttpResponse<String> listed = lrs.send(lrs.request("/xapi/about").header("Origin", "https://lms.example.com").GET());
        assertEquals("true", listed.headers().firstValue("Access-Control-Allow-Credentials").orElse(null));
        assertEquals("https://lms.example.com", listed.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
    }
}
