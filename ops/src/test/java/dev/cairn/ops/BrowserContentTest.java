package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * E-learning content in a real browser, served from one origin, talking to Cairn on another: TinCanJS and
 * @xapi/xapi from their npm packages and plain fetch store statements, read and query them, keep State with its
 * ETag and read the xAPI response headers. The browser sends every preflight itself; nothing here fakes one.
 */
class BrowserContentTest {
    /** The client libraries, from npm at these versions, installed here and never committed. */
    private static final List<String> PACKAGES = List.of("tincanjs@0.50.0", "@xapi/xapi@3.0.3");
    private static final Path CLIENTS = Path.of("target", "browser-clients");
    private static final Map<String, Path> SCRIPTS = Map.of(
            "/tincan.js", CLIENTS.resolve("node_modules/tincanjs/build/tincan.js"),
            "/XAPI.umd.js", CLIENTS.resolve("node_modules/@xapi/xapi/dist/XAPI.umd.js"));

    @BeforeAll
    static void installClientLibraries() throws Exception {
        if (SCRIPTS.values().stream().allMatch(Files::isRegularFile)) {
            return;
        }
        Files.createDirectories(CLIENTS);
        List<String> command = new ArrayList<>(List.of("npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                "--prefix", CLIENTS.toString()));
        command.addAll(PACKAGES);
        Path log = CLIENTS.resolve("npm-install.log");
        Process npm = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(npm.waitFor(5, TimeUnit.MINUTES), "npm install did not finish");
        assertEquals(0, npm.exitValue(), "npm install " + PACKAGES + ": " + Files.readString(log));
    }

    /** Serves the content page and the libraries, as an LMS or CDN would, on an origin of its own. */
    private static HttpServer contentServer() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            byte[] body;
            String type;
            if (path.equals("/content.html")) {
                try (InputStream in = BrowserContentTest.class.getResourceAsStream("/browser/content.html")) {
                    body = in.readAllBytes();
                }
                type = "text/html; charset=utf-8";
            } else if (SCRIPTS.containsKey(path)) {
                body = Files.readAllBytes(SCRIPTS.get(path));
                type = "text/javascript";
            } else {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static JsonNode runContent(TestLrs lrs, Path dir, String learner) throws Exception {
        HttpServer content = contentServer();
        try (Chromium browser = new Chromium(dir.resolve("profile"))) {
            // 127.0.0.1 and localhost are different origins, and so are two ports: the page is cross-origin twice over.
            browser.open("http://localhost:" + content.getAddress().getPort() + "/content.html");
            return browser.runAsync("run(arguments[0], arguments[1], arguments[2]).then(done, (e) => done({failed: String(e)}));",
                    lrs.base() + "/xapi/", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET), learner);
        } finally {
            content.stop(0);
        }
    }

    @Test
    void contentOnAnotherOriginStoresReadsAndKeepsStateThroughEveryClient(@TempDir Path dir) throws Exception {
        try (TestLrs lrs = new TestLrs(dir.resolve("lrs"), null, "*")) {
            JsonNode r = runContent(lrs, dir, "browser@example.com");

            assertEquals(200, r.path("fetchPost").path("status").asInt(), r.toString());
            String fetched = r.path("fetchPost").path("ids").path(0).asText();
            JsonNode get = r.path("fetchGet");
            assertEquals(200, get.path("status").asInt(), r.toString());
            assertEquals(fetched, get.path("id").asText());
            assertEquals("1.0.3", get.path("version").asText(), "X-Experience-API-Version is readable by content");
            assertTrue(get.path("consistentThrough").isTextual(), "X-Experience-API-Consistent-Through is readable");
            assertTrue(get.path("contentType").asText().startsWith("application/json"));
            assertEquals(400, r.path("fetchError").path("status").asInt(), "an error's status and body are readable");
            assertEquals("parameter statementId", r.path("fetchError").path("body").path("where").asText(), r.toString());
            assertEquals("1.0.3", r.path("fetchError").path("version").asText());
            assertEquals(401, r.path("fetchUnauthorized").path("status").asInt(), r.toString());
            assertEquals("auth.required", r.path("fetchUnauthorized").path("body").path("error").asText());

            JsonNode tincan = r.path("tincan");
            assertFalse(tincan.has("error"), tincan.toString());
            assertTrue(tincan.path("found").toString().contains(tincan.path("saved").asText()), tincan.toString());

            assertEquals(200, r.path("xapiSend").path("status").asInt(), r.toString());
            String sent = r.path("xapiSend").path("ids").path(0).asText();
            assertEquals(200, r.path("xapiQuery").path("status").asInt(), r.toString());
            assertTrue(r.path("xapiQuery").path("ids").toString().contains(sent), r.toString());
            assertTrue(r.path("xapiQuery").path("consistentThrough").isTextual(), r.toString());
            JsonNode state = r.path("xapiState");
            assertEquals(204, state.path("setStatus").asInt(), r.toString());
            assertEquals(7, state.path("state").path("page").asInt(), r.toString());
            assertTrue(state.path("etag").isTextual(), "the ETag is readable: " + state);

            JsonNode ifMatch = r.path("fetchStateIfMatch");
            assertNotNull(ifMatch.path("etag").textValue(), r.toString());
            assertEquals(412, ifMatch.path("staleStatus").asInt(), r.toString());
            assertEquals(204, ifMatch.path("freshStatus").asInt(), r.toString());
            assertEquals(9, ifMatch.path("after").path("page").asInt(), r.toString());

            JsonNode stored = TestLrs.json(lrs.get("/xapi/statements?agent="
                    + java.net.URLEncoder.encode("{\"mbox\":\"mailto:browser@example.com\"}", "UTF-8")));
            assertEquals(3, stored.path("statements").size(), "fetch, TinCanJS and @xapi/xapi each stored one");
        }
    }

    @Test
    void contentFromAnOriginOutsideTheAllowedOnesStoresNothing(@TempDir Path dir) throws Exception {
        try (TestLrs lrs = new TestLrs(dir.resolve("lrs"), null, "https://lms.example.com")) {
            JsonNode r = runContent(lrs, dir, "blocked@example.com");
            for (String step : List.of("fetchPost", "tincan", "xapiSend", "xapiState")) {
                assertTrue(r.path(step).has("error"), step + " must fail in the browser: " + r);
            }
            JsonNode stored = TestLrs.json(lrs.get("/xapi/statements?agent="
                    + java.net.URLEncoder.encode("{\"mbox\":\"mailto:blocked@example.com\"}", "UTF-8")));
            assertEquals(0, stored.path("statements").size(), stored.toString());
            assertEquals(404, lrs.get("/xapi/activities/state?activityId=http%3A%2F%2Fexample.com%2Fcourse%2Fbrowser"
                    + "&agent=" + java.net.URLEncoder.encode("{\"mbox\":\"mailto:blocked@example.com\"}", "UTF-8")
                    + "&stateId=bookmark").statusCode());
        }
    }
}
