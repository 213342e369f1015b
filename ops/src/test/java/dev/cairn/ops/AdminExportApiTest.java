package dev.cairn.ops;

import static dev.cairn.ops.ImportTestSupport.awaitStatements;
import static dev.cairn.ops.ImportTestSupport.ndjsonLines;
import static dev.cairn.ops.ImportTestSupport.postLearnerStatements;
import static dev.cairn.ops.ImportTestSupport.statements;
import static dev.cairn.ops.Statements.COMPLETED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.query.StatementExport;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GET /admin/export: what {@code cairn export} writes, over HTTP, for credentials with the admin scope only, with
 * the edge's rules (authentication first, JSON refusals, no browser content).
 */
class AdminExportApiTest extends LrsOnEachDatabase {
    private static final String ADMIN = TestLrs.basic(TestLrs.KEY, TestLrs.SECRET);

    private HttpResponse<String> export(String query, String authorization, String... headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(lrs.base() + "/admin/export" + query));
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        if (headers.length > 0) {
            r.headers(headers);
        }
        return lrs.http.send(r.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Every statement GET /statements returns for {@code query}, following more links (small pages, to page). */
    private List<JsonNode> get(String query) throws Exception {
        return statements(lrs, "limit=5" + (query.isEmpty() ? "" : "&" + query));
    }

    private void store(int n) throws Exception {
        postLearnerStatements(lrs, n);
        awaitStatements(lrs, n);
    }

    private static void refused(HttpResponse<String> r, int status, String error) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(error, TestLrs.json(r).get("error").asText(), r.body());
    }

    @Test
    void streamsWhatGetStatementsReturnsWithoutAVersionHeader() throws Exception {
        store(12);
        String query = "?verb=" + URLEncoder.encode(COMPLETED, StandardCharsets.UTF_8) + "&ascending=true";
        HttpResponse<String> r = export(query, ADMIN);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("application/x-ndjson", r.headers().firstValue("Content-Type").orElse(""));
        assertEquals(get(query.substring(1)), ndjsonLines(r.body()));
        assertEquals(6, ndjsonLines(r.body()).size());
    }

    @Test
    void csvHasItsHeaderAndOneRowPerStatement() throws Exception {
        store(4);
        HttpResponse<String> r = export("?format=csv", ADMIN);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/csv"));
        String[] rows = r.body().split("\r\n");
        assertEquals(5, rows.length, r.body());
        assertEquals(String.join(",", StatementExport.COLUMNS), rows[0]);
        assertTrue(rows[1].startsWith(get("").get(0).get("id").asText() + ","), rows[1]);
    }

    @Test
    void onlyTheAdminScopeReachesItAndAuthenticationComesFirst() throws Exception {
        store(1);
        String[] all = lrs.credentials("create", "--scope", "all").split(":", 2);
        refused(export("", TestLrs.basic(all[0], all[1])), 403, "auth.scope");
        refused(export("", null), 401, "auth.required");
        refused(export("?format=bogus", TestLrs.basic(TestLrs.KEY, "wrong-secret")), 401, "auth.required");
        String[] admin = lrs.credentials("create", "--scope", "admin").split(":", 2);
        assertEquals(200, export("", TestLrs.basic(admin[0], admin[1])).statusCode());
    }

    @Test
    void browserContentIsRefusedWhateverTheAllowedOrigins() throws Exception {
        refused(export("", ADMIN, "Origin", "https://course.example"), 403, "cors.admin");
        HttpResponse<String> preflight = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/admin/export"))
                .header("Origin", "https://course.example").header("Access-Control-Request-Method", "GET")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        refused(preflight, 403, "cors.admin");
        assertTrue(preflight.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
        // an image or a navigation from a page sends no Origin, but the browser says a page started it
        refused(export("", ADMIN, "Sec-Fetch-Site", "cross-site"), 403, "cors.admin");
        refused(export("", ADMIN, "Sec-Fetch-Site", "same-site"), 403, "cors.admin");
        assertEquals(200, export("", ADMIN, "Sec-Fetch-Site", "none").statusCode(), "a person typing the URL");
    }

    @Test
    void http10IsRefusedSinceItsBodyEndsWhereAConnectionIsCut() throws Exception {
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send("GET /admin/export HTTP/1.0\r\nAuthorization: " + ADMIN + "\r\n\r\n");
            RawConnection.Response r = c.read(5_000);
            assertEquals(400, r.status(), r.body());
            assertEquals("export.http_version", TestLrs.JSON.readTree(r.body()).get("error").asText());
        }
    }

    @Test
    void badParametersAndMethodsGetJsonRefusalsNamingThem() throws Exception {
        for (String[] bad : List.of(new String[] {"?format=xml", "parameter format"},
                new String[] {"?statementId=6fbd600f-d17c-4c74-801a-2ec2e53231c7", "parameter statementId"},
                new String[] {"?limit=5", "parameter limit"}, new String[] {"?since=soon", "parameter since"},
                new String[] {"?format=csv&format=csv", "parameter format"})) {
            HttpResponse<String> r = export(bad[0], ADMIN);
            assertEquals(400, r.statusCode(), bad[0] + ": " + r.body());
            assertEquals(bad[1], TestLrs.json(r).get("where").asText(), bad[0] + ": " + r.body());
        }
        HttpResponse<String> post = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/admin/export"))
                .header("Authorization", ADMIN).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode(), post.body());
    }
}
