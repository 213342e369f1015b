package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.XapiException;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;

/**
 * The head of the chain over real HTTP: CORS before anything else, and one JSON shape for every refusal, those
 * of Undertow's own parser and of exceptions included.
 */
class EdgeServerTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final int WRITE_TIMEOUT_MILLIS = 1000;
    private static final int LARGE = 64 << 20;
    private final java.util.concurrent.CountDownLatch largeEnded = new java.util.concurrent.CountDownLatch(1);
    private HttpServer server;
    private final int[] reached = {0};
    /** What the policy under test counts as a store that cannot answer. */
    private static final RuntimeException UNAVAILABLE = new RuntimeException("jdbc:postgresql://db.internal/lrs refused");

    private void start(CorsPolicy cors) throws Exception {
        HttpHandler throwing = exchange -> {
            throw new IllegalStateException("secret internals");
        };
        HttpHandler alternate = new AlternateSyntaxHandler(1 << 20, new UnauthenticatedBodies(1 << 20), null, throwing);
        HttpHandler routes = exchange -> {
            reached[0]++;
            switch (exchange.getRequestPath()) {
                case "/boom" -> throw new IllegalStateException("secret internals");
                case "/alternate" -> alternate.handleRequest(exchange);
                case "/boom-on-worker" -> exchange.dispatch(ex -> {
                    throw new IllegalStateException("secret internals");
                });
                case "/fail-on-worker" -> exchange.dispatch(() -> {
                    try {
                        throw new IllegalStateException("secret internals");
                    } catch (IllegalStateException e) {
                        ErrorPolicy.fail(exchange, e);
                    }
                });
                case "/unavailable" -> throw UNAVAILABLE;
                case "/bad-parameter" -> throw new XapiException("parameter limit", "parameter.invalid", "limit is not a number");
                case "/bad-parameter-on-worker" -> exchange.dispatch(() -> ErrorPolicy.fail(exchange,
                        new XapiException("parameter limit", "parameter.invalid", "limit is not a number")));
                case "/bare-412" -> {
                    exchange.setStatusCode(412);
                    exchange.endExchange();
                }
                case "/empty-204" -> Responses.noContent(exchange);
                case "/large" -> {
                    exchange.addExchangeCompleteListener((ex, next) -> {
                        largeEnded.countDown();
                        next.proceed();
                    });
                    exchange.setStatusCode(200);
                    Responses.send(exchange, new byte[LARGE]);
                }
                case "/document" -> { // a client's document whose last slice is Undertow's own bare 400, byte for byte
                    byte[] body = new byte[(128 << 10) + MalformedRequestConduit.UNDERTOW_BAD_REQUEST.length];
                    java.util.Arrays.fill(body, (byte) 'A');
                    System.arraycopy(MalformedRequestConduit.UNDERTOW_BAD_REQUEST, 0, body, 128 << 10,
                            MalformedRequestConduit.UNDERTOW_BAD_REQUEST.length);
                    exchange.setStatusCode(200);
                    Responses.send(exchange, body);
                }
                default -> Responses.error(exchange, 401, "auth.required", "header Authorization", "send credentials");
            }
        };
        server = HttpServer.start("127.0.0.1", 0, new ErrorPolicy(dev.cairn.xapi.XapiVersion.V2_0_0,
                UNAVAILABLE::equals, new CorsHandler(cors, routes)),
                OptionMap.create(UndertowOptions.NO_REQUEST_TIMEOUT, 10_000), 1000, WRITE_TIMEOUT_MILLIS,
                HttpServer.malformedAnswer("2.0.0", cors));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPreflightIsAnsweredWithoutCredentialsAndReachesNoHandler() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        HttpResponse<String> r = send("OPTIONS", "/xapi/statements", "Origin", "http://content.test:8000",
                "Access-Control-Request-Method", "PUT",
                "Access-Control-Request-Headers", "authorization,content-type,x-experience-api-version,x-custom-lib");
        assertEquals(204, r.statusCode());
        assertEquals(0, reached[0], "nothing behind the CORS handler ran");
        assertEquals("http://content.test:8000", r.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        assertTrue(r.headers().firstValue("Access-Control-Allow-Credentials").isEmpty(),
                "with any origin allowed, no origin may send the browser's own credentials");
        assertEquals("GET, HEAD, PUT, POST, DELETE", r.headers().firstValue("Access-Control-Allow-Methods").orElseThrow());
        String allowed = r.headers().firstValue("Access-Control-Allow-Headers").orElseThrow();
        for (String h : new String[] {"Authorization", "Content-Type", "X-Experience-API-Version", "If-Match",
                "If-None-Match", "X-Cairn-Ack", "x-custom-lib"}) {
            assertTrue(allowed.contains(h), h + " in " + allowed);
        }
        assertEquals("7200", r.headers().firstValue("Access-Control-Max-Age").orElseThrow());
        assertTrue(r.headers().allValues("Vary").toString().contains("Origin"));
    }

    @Test
    void aPreflightNamingMalformedHeadersAllowsOnlyTheWellFormedOnes() {
        String allowed = CorsHandler.allowedHeaders("x-ok, bad header, x\"quote, , x-ok2");
        assertTrue(allowed.endsWith(", x-ok, x-ok2"), allowed);
        assertEquals(CorsHandler.HEADERS, CorsHandler.allowedHeaders("x".repeat(5000)));
    }

    @Test
    void everyResponseToAnAllowedOriginCarriesTheAllowAndExposeHeadersErrorsIncluded() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        for (String path : new String[] {"/needs-auth", "/boom", "/boom-on-worker", "/bare-412"}) {
            HttpResponse<String> r = send("GET", path, "Origin", "http://content.test:8000");
            assertTrue(r.statusCode() >= 400, path);
            assertEquals("http://content.test:8000", r.headers().firstValue("Access-Control-Allow-Origin").orElse(null), path);
            String exposed = r.headers().firstValue("Access-Control-Expose-Headers").orElseThrow();
            for (String h : new String[] {"ETag", "Last-Modified", "Content-Type", "X-Experience-API-Version",
                    "X-Experience-API-Consistent-Through"}) {
                assertTrue(exposed.contains(h), h);
            }
        }
    }

    @Test
    void aRequestWithoutOriginGetsNoCorsHeaders() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        HttpResponse<String> r = send("GET", "/needs-auth");
        assertEquals(401, r.statusCode());
        assertTrue(r.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
    }

    @Test
    void anOriginOutsideTheListGetsA403WithAReasonAndNoAllowHeader() throws Exception {
        start(CorsPolicy.parse("https://lms.example.com", 600));
        HttpResponse<String> preflight = send("OPTIONS", "/xapi/statements", "Origin", "https://evil.test",
                "Access-Control-Request-Method", "POST");
        assertEquals(403, preflight.statusCode());
        assertTrue(preflight.body().contains("\"error\":\"cors.origin\""), preflight.body());
        assertTrue(preflight.body().contains("\"where\":\"header Origin\""), preflight.body());
        assertTrue(preflight.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
        HttpResponse<String> actual = send("POST", "/xapi/statements", "Origin", "https://evil.test");
        assertEquals(403, actual.statusCode());
        assertEquals(0, reached[0], "a refused origin's request reaches no handler");
        HttpResponse<String> listed = send("OPTIONS", "/xapi/statements", "Origin", "https://lms.example.com",
                "Access-Control-Request-Method", "POST");
        assertEquals(204, listed.statusCode());
        assertEquals("https://lms.example.com", listed.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        assertEquals("true", listed.headers().firstValue("Access-Control-Allow-Credentials").orElseThrow(),
                "a listed origin may send the browser's credentials");
    }

    @Test
    void anExceptionAnywhereAnswers500InTheJsonShapeWithoutItsText() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        for (String path : new String[] {"/boom", "/boom-on-worker", "/fail-on-worker"}) {
            HttpResponse<String> r = send("GET", path);
            assertEquals(500, r.statusCode(), path);
            assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(r.body().startsWith("{\"error\":\"server.error\",\"where\":"), r.body());
            assertFalse(r.body().contains("secret internals"), r.body());
            assertEquals("2.0.0", r.headers().firstValue("X-Experience-API-Version").orElseThrow());
        }
    }

    @Test
    void anExceptionBehindTheAlternateRequestSyntaxAnswers500InTheJsonShapeWithoutItsText() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                        + "/alternate?method=GET")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("X-Experience-API-Version=1.0.3")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(500, r.statusCode());
        assertTrue(r.body().startsWith("{\"error\":\"server.error\",\"where\":"), r.body());
        assertFalse(r.body().contains("secret internals"), r.body());
    }

    @Test
    void aClientsMistakeThrownOnAnyThreadIs400WithItsCodeAndPlace() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        for (String path : new String[] {"/bad-parameter", "/bad-parameter-on-worker"}) {
            HttpResponse<String> r = send("GET", path);
            assertEquals(400, r.statusCode(), path);
            assertEquals("{\"error\":\"parameter.invalid\",\"where\":\"parameter limit\",\"message\":"
                    + "\"limit is not a number\"}", r.body());
        }
    }

    @Test
    void aStoreThatCannotAnswerIs503WithRetryAfterAndWithoutItsText() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        HttpResponse<String> r = send("GET", "/unavailable");
        assertEquals(503, r.statusCode());
        assertEquals("1", r.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(r.body().startsWith("{\"error\":\"store.unavailable\",\"where\":"), r.body());
        assertFalse(r.body().contains("db.internal"), r.body());
    }

    @Test
    void anUnexpectedFailureIs500InTheJsonShapeWithoutItsText() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        for (String method : new String[] {"POST", "GET"}) {
            HttpResponse<String> r = send(method, "/boom");
            assertEquals(500, r.statusCode());
            assertTrue(r.body().startsWith("{\"error\":\"server.error\",\"where\":\"request\""), r.body());
            assertFalse(r.body().contains("internals"), r.body());
        }
    }

    @Test
    void a500ToAWriteSaysItMayHaveBeenStoredAndOneToAReadDoesNot() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        assertTrue(send("POST", "/boom").body().contains("may or may not have been stored"));
        assertFalse(send("GET", "/boom").body().contains("stored"));
    }

    @Test
    void aBareErrorStatusGetsTheJsonBodyAndASuccessStaysEmpty() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        HttpResponse<String> r = send("GET", "/bare-412");
        assertEquals(412, r.statusCode());
        assertTrue(r.body().startsWith("{\"error\":"), r.body());
        HttpResponse<String> ok = send("GET", "/empty-204");
        assertEquals(204, ok.statusCode());
        assertEquals("", ok.body());
    }

    @Test
    void aRequestUndertowCannotParseGetsA400WithTheJsonBody() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        for (String request : new String[] {
                "GET /xapi/about\u0001 HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /xapi/about HTTP/1.1\r\nHost: x\r\nX-Bad\u0000Name: 1\r\n\r\n",
                "GET /xapi HTTP/1.1\r\nBad Header Line\r\n\r\n",
                "GET /xapi HTTP/1.1\r\nAccept: */*\r\n\r\n", // no Host
                "GET /xapi HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
                "GET /xapi HTTP/1.1\r\nHost: [::1\r\n\r\n",
                "GET /xapi HTTP/1.1\r\nX-Long: " + "a".repeat(2 * 1024 * 1024) + "\r\n\r\n"}) {
            String answer = raw(request);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
            assertTrue(answer.contains("Content-Type: application/json"), answer);
            assertTrue(answer.contains("X-Experience-API-Version: 2.0.0"), answer);
            assertTrue(answer.contains("Access-Control-Allow-Origin: *"), answer);
            assertTrue(answer.contains("\r\n\r\n{\"error\":\"request.malformed\",\"where\":\"request\",\"message\":"), answer);
            int length = Integer.parseInt(answer.replaceAll("(?s).*Content-Length: (\\d+).*", "$1"));
            assertEquals(length, answer.substring(answer.indexOf("\r\n\r\n") + 4).getBytes(StandardCharsets.UTF_8).length);
        }
        assertEquals(0, reached[0]);
    }

    @Test
    void aResponseWhoseBytesLookLikeUndertowsRefusalIsSentAsItIsAndTheConnectionGoesOn() throws Exception {
        start(CorsPolicy.parse("*", 7200));
        String expected = "A".repeat(128 << 10)
                + new String(MalformedRequestConduit.UNDERTOW_BAD_REQUEST, StandardCharsets.US_ASCII);
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write("GET /document HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String head = readHead(in);
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            assertTrue(head.contains("Content-Length: " + expected.length()), head);
            String body = new String(in.readNBytes(expected.length()), StandardCharsets.US_ASCII);
            assertTrue(body.equals(expected), "the body as the handler sent it, ending: "
                    + body.substring(Math.max(0, body.length() - 100)));
            out.write("GET /empty-204 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String next = readHead(in);
            assertTrue(next.startsWith("HTTP/1.1 204 "), "the connection serves the next request: " + next);
        }
    }

    /** Reads a response's status line and headers, up to the empty line. */
    private static String readHead(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void underARestrictedPolicyTheParserRefusalNamesNoOrigin() throws Exception {
        start(CorsPolicy.parse("https://lms.example.com", 600));
        String answer = raw("GET /xapi HTTP/1.1\r\nBad Header Line\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
        assertNull(answer.contains("Access-Control-Allow-Origin") ? answer : null);
    }

    @Test
    void aClientThatStopsReadingLosesItsConnectionAndTheResponseIsLetGo() throws Exception {
        // Found by the adversarial review: clients that GET a large page or document and never read it held it in
        // the heap for as long as they kept the connection.
        start(CorsPolicy.parse("*", 7200));
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setReceiveBufferSize(64 << 10);
            s.getOutputStream().write("GET /large HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(largeEnded.await(WRITE_TIMEOUT_MILLIS * 10L, java.util.concurrent.TimeUnit.MILLISECONDS),
                    "the response ended while its client read nothing");
            s.setSoTimeout(10_000);
            long received = 0;
            byte[] buf = new byte[1 << 16];
            try {
                for (int n; (n = s.getInputStream().read(buf)) > 0; ) {
                    received += n;
                }
            } catch (java.net.SocketException e) {
                // reset: the server closed with bytes unread
            }
            assertTrue(received < LARGE, "the client got " + received + " of " + LARGE + " bytes: the server gave up");
        }
    }

    /** Sends bytes as they are and reads the answer until the server closes the connection. */
    private String raw(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (java.net.SocketException e) {
                // the server may answer and close before a long request is all sent; read what it said
            }
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                }
            } catch (java.net.SocketException e) {
                // a reset after the answer
            }
            return got.toString(StandardCharsets.UTF_8);
        }
    }
}
