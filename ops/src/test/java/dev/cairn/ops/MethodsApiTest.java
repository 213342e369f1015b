package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every resource answers a method it does not have with 405 and an Allow header (RFC 9110 15.5.6), before
 * authentication, and methods are case-sensitive (RFC 9110 9.1): {@code get} is not GET. Nothing here touches
 * storage, so one database is enough.
 */
class MethodsApiTest {
    private static final String READS = "GET, HEAD";
    /** Each resource and the methods it has, as its Allow header lists them. */
    private static final Map<String, String> RESOURCES = Map.ofEntries(
            Map.entry("/xapi/about", READS),
            Map.entry("/xapi/statements", "GET, HEAD, PUT, POST"),
            Map.entry("/xapi/statements/more/abc", READS),
            Map.entry("/xapi/activities", READS),
            Map.entry("/xapi/agents", READS),
            Map.entry("/xapi/activities/state", "GET, HEAD, PUT, POST, DELETE"),
            Map.entry("/xapi/activities/profile", "GET, HEAD, PUT, POST, DELETE"),
            Map.entry("/xapi/agents/profile", "GET, HEAD, PUT, POST, DELETE"),
            Map.entry("/metrics", READS),
            Map.entry("/health/live", READS),
            Map.entry("/health/ready", READS));
    private static final List<String> OTHER_METHODS = List.of("PATCH", "TRACE", "CONNECT", "OPTIONS", "PROPFIND",
            "FOO", "get", "Get", "head", "post", "put", "delete");

    @TempDir
    static Path data;
    static TestLrs lrs;

    @BeforeAll
    static void start() throws Exception {
        lrs = new TestLrs(data, "jdbc:sqlite:" + data.resolve("cairn.db"));
    }

    @AfterAll
    static void stop() {
        lrs.close();
    }

    private static List<String> notAllowed(String allow) {
        List<String> methods = new ArrayList<>(OTHER_METHODS);
        for (String m : List.of("PUT", "POST", "DELETE")) {
            if (!allow.contains(m)) {
                methods.add(m);
            }
        }
        return methods;
    }

    private static RawHttpRequest.Response send(String method, String path, boolean credentials) throws Exception {
        String headers = "X-Experience-API-Version: 1.0.3\r\n"
                + (credentials ? "Authorization: " + TestLrs.basic(TestLrs.KEY, TestLrs.SECRET) + "\r\n" : "");
        return RawHttpRequest.send(lrs.cairn.port(), method + " " + path + " HTTP/1.1", headers, "");
    }

    @Test
    void aMethodAResourceDoesNotHaveGets405WithAllowEvenWithoutCredentials() throws Exception {
        for (Map.Entry<String, String> resource : RESOURCES.entrySet()) {
            for (String method : notAllowed(resource.getValue())) {
                for (boolean credentials : List.of(false, true)) {
                    RawHttpRequest.Response r = send(method, resource.getKey(), credentials);
                    String what = method + " " + resource.getKey() + (credentials ? " with credentials" : "");
                    assertEquals(405, r.status(), what + ": " + r.body());
                    assertEquals(resource.getValue(), r.header("Allow"), what);
                    if (resource.getKey().startsWith("/xapi/")) {
                        assertEquals("1.0.3", r.header("X-Experience-API-Version"), what);
                    }
                    if (method.equalsIgnoreCase("HEAD")) {
                        // Undertow sends no body for any spelling of HEAD; the answer announces none
                        assertEquals("0", r.header("Content-Length"), what);
                        assertEquals("", r.body(), what);
                    } else {
                        assertEquals("method.not_allowed", TestLrs.JSON.readTree(r.body()).path("error").asText(), what);
                    }
                }
            }
        }
    }

    @Test
    void theMethodsAResourceHasStillWork() throws Exception {
        for (String path : List.of("/xapi/about", "/metrics", "/health/live")) {
            for (String method : List.of("GET", "HEAD")) {
                assertEquals(200, send(method, path, false).status(), method + " " + path);
            }
        }
        assertEquals(200, send("GET", "/xapi/statements", true).status());
        assertEquals(401, send("GET", "/xapi/statements", false).status(), "a method it has still needs credentials");
    }

    @Test
    void theStatementResourceCarriesConsistentThroughOnA405() throws Exception {
        RawHttpRequest.Response r = send("PATCH", "/xapi/statements", true);
        assertEquals(405, r.status());
        assertEquals(true, r.header("X-Experience-API-Consistent-Through") != null, r.head());
    }

    @Test
    void inventedMethodsShareOneMetricsSeries() throws Exception {
        for (int i = 0; i < 20; i++) {
            assertEquals(405, send("INVENTED" + i, "/xapi/about", false).status());
        }
        String metrics = send("GET", "/metrics", false).body();
        assertEquals(false, metrics.contains("INVENTED"), "a series per invented method");
        assertEquals(true, metrics.contains("method=\"other\""), "the invented methods are counted as other");
    }
}
