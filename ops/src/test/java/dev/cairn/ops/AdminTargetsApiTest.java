package dev.cairn.ops;

import static dev.cairn.ops.ImportTestSupport.awaitStatements;
import static dev.cairn.ops.ImportTestSupport.postLearnerStatements;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /admin/targets: forwarding managed over HTTP, for credentials with the admin scope only, with the edge's rules
 * (authentication first, bounded JSON bodies, refusals naming the JSON path, no browser content), on each database.
 */
class AdminTargetsApiTest extends LrsOnEachDatabase {
    private static final String ADMIN = TestLrs.basic(TestLrs.KEY, TestLrs.SECRET);

    @TempDir
    Path second;

    private HttpResponse<String> call(String method, String path, String body, String authorization,
                                      String... headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(lrs.base() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            r.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        if (headers.length > 0) {
            r.headers(headers);
        }
        return lrs.http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void refused(HttpResponse<String> r, int status, String error, String where) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode json = TestLrs.json(r);
        assertEquals(error, json.get("error").asText(), r.body());
        if (where != null) {
            assertEquals(where, json.get("where").asText(), r.body());
        }
    }

    private static String lrsTarget(String name, String url) {
        return "{\"name\":\"" + name + "\",\"kind\":\"lrs\",\"url\":\"" + url + "\",\"credential\":\"" + TestLrs.KEY
                + ":" + TestLrs.SECRET + "\",\"from\":\"start\",\"maxDelayMillis\":20}";
    }

    @Test
    void aTargetAddedOverHttpForwardsAndIsListedWithoutItsSecrets() throws Exception {
        try (TestLrs target = new TestLrs(second, null)) {
            postLearnerStatements(lrs, 6);
            String spec = lrsTarget("second", target.base() + "/xapi");
            HttpResponse<String> added = call("POST", "/admin/targets", spec.substring(0, spec.length() - 1)
                    + ",\"lrsVersion\":\"2.0.0\"}", ADMIN);
            assertEquals(201, added.statusCode(), added.body());
            assertEquals(6, awaitStatements(target, 6).size());
            HttpResponse<String> list = call("GET", "/admin/targets", null, ADMIN);
            assertEquals(200, list.statusCode(), list.body());
            JsonNode t = TestLrs.json(list).get("targets").get(0);
            assertEquals("second", t.get("name").asText());
            assertTrue(t.get("credential").asBoolean());
            assertEquals("2.0.0", t.get("lrsVersion").asText());
            assertFalse(list.body().contains(TestLrs.SECRET), "no secret is returned: " + list.body());
            refused(call("POST", "/admin/targets", lrsTarget("second", target.base() + "/xapi"), ADMIN), 409,
                    "target.exists", "$.name");

            assertTrue(TestLrs.json(call("POST", "/admin/targets/second/pause", null, ADMIN)).get("target")
                    .get("paused").asBoolean());
            Thread.sleep(1_500);
            postLearnerStatements(lrs, 2);
            Thread.sleep(1_000);
            assertEquals(6, ImportTestSupport.allStatements(target).size(), "paused");
            assertFalse(TestLrs.json(call("POST", "/admin/targets/second/resume", null, ADMIN)).get("target")
                    .get("paused").asBoolean());
            assertEquals(8, awaitStatements(target, 8).size());
            assertEquals(200, call("GET", "/admin/targets/second/dead-letters", null, ADMIN).statusCode());
            assertEquals(204, call("DELETE", "/admin/targets/second", null, ADMIN).statusCode());
            refused(call("DELETE", "/admin/targets/second", null, ADMIN), 404, "target.unknown", null);
        }
    }

    @Test
    void onlyTheAdminScopeReachesItAndBrowsersAreRefused() throws Exception {
        String[] all = lrs.credentials("create", "--scope", "all").split(":", 2);
        refused(call("GET", "/admin/targets", null, TestLrs.basic(all[0], all[1])), 403, "auth.scope", null);
        refused(call("POST", "/admin/targets", lrsTarget("x", "http://127.0.0.1:9/xapi"),
                TestLrs.basic(all[0], all[1])), 403, "auth.scope", null);
        refused(call("GET", "/admin/targets", null, null), 401, "auth.required", null);
        refused(call("GET", "/admin/targets", null, ADMIN, "Origin", "https://course.example"), 403, "cors.admin",
                null);
        assertEquals("{\"targets\":[]}", call("GET", "/admin/targets", null, ADMIN).body(),
                "a refused add stored nothing");
    }

    @Test
    void badTargetsAndPathsGetJsonRefusalsNamingThem() throws Exception {
        String ok = "\"kind\":\"webhook\",\"url\":\"http://127.0.0.1:9/hook\"";
        List<String[]> cases = List.of(
                new String[] {"{\"name\":\"x\",\"kind\":\"ftp\",\"url\":\"http://127.0.0.1:9/\"}", "$.kind"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"batch\":0}", "$.batch"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"batch\":99999999999999999999}", "$.batch"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"maxDelayMillis\":-1}", "$.maxDelayMillis"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"filter\":\"until=soon\"}", "$.filter"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"secret\":\"short\"}", "$.secret"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"from\":\"yesterday\"}", "$.from"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"paused\":\"yes\"}", "$.paused"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"colour\":\"red\"}", "$.colour"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"lrsVersion\":\"1.0.3\"}", "$.lrsVersion"},
                new String[] {"{\"name\":\"x\",\"kind\":\"lrs\",\"url\":\"http://127.0.0.1:9/xapi\",\"credential\":\"k:s\","
                        + "\"lrsVersion\":\"0.95\"}", "$.lrsVersion"},
                new String[] {"{\"name\":\"x\",\"name\":\"y\"," + ok + "}", "$"},
                new String[] {"{\"name\":\"x\"," + ok, "$"},
                new String[] {"[]", "$"},
                new String[] {"{\"name\":\"../etc\"," + ok + "}", "$.name"},
                new String[] {"{\"name\":\"x\",\"kind\":\"lrs\",\"url\":\"http://127.0.0.1:9/xapi\"}", "$.credential"},
                new String[] {"{\"name\":\"x\",\"kind\":\"webhook\",\"url\":\"gopher://127.0.0.1:9/\"}", "$.url"},
                new String[] {"{\"name\":\"x\",\"kind\":\"webhook\",\"url\":\"http://127.0.0.1:70000/\"}", "$.url"},
                new String[] {"{\"name\":\"x\"," + ok + ",\"batch\":" + "9".repeat(1_200) + "}", "$"},
                new String[] {"\u0000\u0000\u00ff\u00fe{}", "$"});
        for (String[] c : cases) {
            HttpResponse<String> r = call("POST", "/admin/targets", c[0], ADMIN);
            assertEquals(400, r.statusCode(), c[0] + ": " + r.body());
            assertEquals(c[1], TestLrs.json(r).get("where").asText(), c[0] + ": " + r.body());
        }
        HttpResponse<String> big = call("POST", "/admin/targets", "{\"name\":\"x\",\"filter\":\"" + "a".repeat(20_000)
                + "\"}", ADMIN);
        refused(big, 413, "request.too_large", "body");
        HttpResponse<String> text = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/admin/targets"))
                .header("Authorization", ADMIN).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        refused(text, 415, "body.content_type", "header Content-Type");
        refused(call("PUT", "/admin/targets", "{}", ADMIN), 405, "method.not_allowed", null);
        refused(call("GET", "/admin/targets/x/pause", null, ADMIN), 405, "method.not_allowed", null);
        refused(call("POST", "/admin/targets/nobody/pause", null, ADMIN), 404, "target.unknown", null);
        refused(call("GET", "/admin/targets/x/y/z", null, ADMIN), 404, "resource.unknown", null);
        refused(call("POST", "/admin/dead-letters/abc/retry", null, ADMIN), 404, "resource.unknown", null);
        refused(call("POST", "/admin/dead-letters/42/retry", null, ADMIN), 404, "dead_letter.unknown", null);
        assertEquals("{\"targets\":[]}", call("GET", "/admin/targets", null, ADMIN).body());
    }

    @Test
    void deadLettersArePagedOldestFirstAndRetriedAllAtOnce() throws Exception {
        com.sun.net.httpserver.HttpServer receiver = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        java.util.concurrent.atomic.AtomicInteger posts = new java.util.concurrent.atomic.AtomicInteger();
        receiver.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            posts.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try (dev.cairn.store.Database db = dev.cairn.store.Database.open(lrs.db)) {
            dev.cairn.store.ForwardStore store = new dev.cairn.store.ForwardStore(db);
            store.insert(new dev.cairn.store.ForwardTarget("hook", "webhook", "http://127.0.0.1:"
                    + receiver.getAddress().getPort() + "/hook", null, null, "", 10, 30, null, true, -1L));
            for (int i = 0; i < 3; i++) {
                store.deadLetter("hook", i, 1, "{\"statements\":[]}".getBytes(), "application/json", 400,
                        "refused " + i);
            }
            JsonNode first = TestLrs.json(call("GET", "/admin/targets/hook/dead-letters?limit=2", null, ADMIN));
            assertEquals(List.of("refused 0", "refused 1"), first.get("deadLetters").findValuesAsText("response"));
            JsonNode rest = TestLrs.json(call("GET", first.get("more").asText(), null, ADMIN));
            assertEquals(List.of("refused 2"), rest.get("deadLetters").findValuesAsText("response"));
            assertFalse(rest.has("more"), rest.toString());

            HttpResponse<String> retried = call("POST", "/admin/targets/hook/dead-letters/retry?limit=2", null, ADMIN);
            assertEquals(200, retried.statusCode(), retried.body());
            assertEquals(2, TestLrs.json(retried).get("delivered").asInt(), retried.body());
            assertTrue(TestLrs.json(retried).get("more").asBoolean(), retried.body());
            assertEquals(List.of("refused 2"), store.deadLetters("hook").stream().map(d -> d.response()).toList());
            retried = call("POST", "/admin/targets/hook/dead-letters/retry", null, ADMIN);
            assertEquals(1, TestLrs.json(retried).get("delivered").asInt(), retried.body());
            assertFalse(TestLrs.json(retried).get("more").asBoolean(), retried.body());
            assertEquals(3, posts.get());
            assertTrue(store.deadLetters("hook").isEmpty());
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void badDeadLetterParametersAreRefusedNamingThem() throws Exception {
        for (String query : List.of("limit=0", "limit=1001", "limit=abc", "limit=+5", "after=-1",
                "after=99999999999999999999", "limit=")) {
            String name = query.substring(0, query.indexOf('='));
            refused(call("GET", "/admin/targets/x/dead-letters?" + query, null, ADMIN), 400, "parameter.invalid",
                    "parameter " + name);
        }
        refused(call("GET", "/admin/targets/x/dead-letters?colour=red", null, ADMIN), 400, "parameter.unknown",
                "parameter colour");
        refused(call("GET", "/admin/targets/x/dead-letters?limit=1&limit=2", null, ADMIN), 400, "parameter.repeated",
                "parameter limit");
        refused(call("POST", "/admin/targets/x/dead-letters/retry?limit=0", null, ADMIN), 400, "parameter.invalid",
                "parameter limit");
        refused(call("GET", "/admin/targets/x/dead-letters/retry", null, ADMIN), 405, "method.not_allowed", null);
        refused(call("POST", "/admin/targets/nobody/dead-letters/retry", null, ADMIN), 404, "target.unknown", null);
        refused(call("GET", "/admin/targets/nobody/dead-letters", null, ADMIN), 404, "target.unknown", null);
        refused(call("POST", "/admin/targets/x/dead-letters/retry", null, null), 401, "auth.required", null);
    }
}
