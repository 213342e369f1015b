package dev.cairn.ops;

import static dev.cairn.ops.Statements.COMPLETED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    void aLowerCasePostIsNotTheSyntaxsPost() throws Exception {
        // Found by the fuzzer: methods are case-sensitive (RFC 9110 9.1), but Undertow's comparisons are not.
        String form = form("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET), "X-Experience-API-Version", "1.0.3");
        RawHttp.Response r = RawHttp.send(lrs.cairn.port(), "post /xapi/statements?method=GET HTTP/1.1\r\n"
                + "Content-Type: application/x-www-form-urlencoded", form.getBytes(StandardCharsets.UTF_8));
        assertEquals(400, r.status(), r.body());
        assertTrue(r.body().contains("\"error\":\"syntax.not_post\""), r.body());
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

    /** A statement whose actor name holds the bytes C3 28: not UTF-8 (a lead byte followed by no continuation). */
    private static byte[] notUtf8Statement(String id) {
        String s = Statements.withId(id, "a@example.com", COMPLETED, "http://example.com/a").replace("Learner", "L\u0001");
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int at = s.indexOf('\u0001');
        byte[] out = new byte[b.length + 1];
        System.arraycopy(b, 0, out, 0, at);
        out[at] = (byte) 0xc3;
        out[at + 1] = (byte) 0x28;
        System.arraycopy(b, at + 1, out, at + 2, b.length - at - 1);
        return out;
    }

    /** The form encoding of {@code bytes}: each byte as %XX. */
    private static String percent(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            b.append('%').append(String.format("%02X", x & 0xff));
        }
        return b.toString();
    }

    @Test
    void contentThatIsNotUtf8IsRefusedAsTheSameBytesInAJsonPutAre() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> json = lrs.send(lrs.request("/xapi/statements?statementId=" + id)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofByteArray(notUtf8Statement(id))));
        assertEquals(400, json.statusCode(), json.body());
        assertEquals("json.malformed", TestLrs.json(json).get("error").asText());

        HttpResponse<String> form = alternate("method=PUT", form("statementId", id, "Authorization",
                TestLrs.basic(TestLrs.KEY, TestLrs.SECRET), "X-Experience-API-Version", "1.0.3") + "&content="
                + percent(notUtf8Statement(id)));
        assertEquals(400, form.statusCode(), form.body());
        assertEquals("json.malformed", TestLrs.json(form).get("error").asText());
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode());
    }

    @Test
    void aFormFieldOtherThanContentThatIsNotUtf8IsRefused() throws Exception {
        HttpResponse<String> r = alternate("method=GET", form("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET),
                "X-Experience-API-Version", "1.0.3") + "&verb=http%3A%2F%2Fexample.com%2F%C3%28");
        assertEquals(400, r.statusCode(), r.body());
        assertEquals("form.malformed", TestLrs.json(r).get("error").asText());
    }

    /** A POST of the syntax on a raw connection: headers, then {@code sent} of the {@code declared} body bytes. */
    private Socket startForm(String extraHeaders, long declared, byte[] sent) throws Exception {
        Socket s = new Socket("127.0.0.1", lrs.cairn.port());
        s.setSoTimeout(20_000);
        OutputStream out = s.getOutputStream();
        out.write(("POST /xapi/statements?method=PUT HTTP/1.1\r\nHost: cairn\r\nX-Experience-API-Version: 1.0.3\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + declared + "\r\n"
                + extraHeaders + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.write(sent);
        out.flush();
        return s;
    }

    private static int statusOf(Socket s) throws Exception {
        byte[] line = new byte[12];
        int n = 0;
        InputStream in = s.getInputStream();
        while (n < line.length) {
            int r = in.read(line, n, line.length - n);
            if (r < 0) {
                throw new IllegalStateException("the connection closed without an answer");
            }
            n += r;
        }
        return Integer.parseInt(new String(line, 9, 3, StandardCharsets.US_ASCII));
    }

    private long unauthenticatedBytes() throws Exception {
        String metrics = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("cairn_http_unauthenticated_body_bytes ")) {
                return (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1));
            }
        }
        throw new IllegalStateException("no unauthenticated body gauge in /metrics");
    }

    private void awaitUnauthenticatedBytes(long expected) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        long held;
        while ((held = unauthenticatedBytes()) != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(expected, held);
    }

    @Test
    void withAnAuthorizationHeaderTheCredentialsAreVerifiedBeforeTheFormIsRead() throws Exception {
        try (Socket s = startForm("Authorization: " + TestLrs.basic(TestLrs.KEY, "wrong-secret-0123") + "\r\n",
                TestLrs.MAX_BODY, "s".getBytes(StandardCharsets.UTF_8))) {
            assertEquals(401, statusOf(s), "answered while the declared body has not arrived");
        }
        String id = UUID.randomUUID().toString();
        byte[] form = form("statementId", id, "X-Experience-API-Version", "1.0.3", "content",
                Statements.statement("a@example.com", COMPLETED, "http://example.com/a")).getBytes(StandardCharsets.UTF_8);
        try (Socket s = startForm("Authorization: " + TestLrs.basic(TestLrs.KEY, TestLrs.SECRET) + "\r\n",
                form.length, form)) {
            assertEquals(204, statusOf(s));
        }
        assertEquals(200, lrs.get("/xapi/statements?statementId=" + id).statusCode());
    }

    @Test
    void formsWithoutCredentialsHoldOnlyTheBytesSentAndNoMoreThanTheBudget() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) { // each declares the largest body and sends one byte
                held.add(startForm("", TestLrs.MAX_BODY, new byte[] {'s'}));
            }
            awaitUnauthenticatedBytes(16);
            String id = UUID.randomUUID().toString();
            HttpResponse<String> put = alternate("method=PUT", form("statementId", id, "Authorization",
                    TestLrs.basic(TestLrs.KEY, TestLrs.SECRET), "X-Experience-API-Version", "1.0.3", "content",
                    Statements.statement("a@example.com", COMPLETED, "http://example.com/a")));
            assertEquals(204, put.statusCode(), "a legitimate write is answered: " + put.body());

            // The budget is 4 bodies of the largest size: three nearly whole ones fit, a fourth does not.
            byte[] nearlyWhole = new byte[(int) TestLrs.MAX_BODY - 1];
            Arrays.fill(nearlyWhole, (byte) 's');
            for (int i = 0; i < 3; i++) {
                held.add(startForm("", TestLrs.MAX_BODY, nearlyWhole));
                awaitUnauthenticatedBytes(16 + (i + 1) * (TestLrs.MAX_BODY - 1));
            }
            try (Socket over = startForm("", TestLrs.MAX_BODY, nearlyWhole)) {
                assertEquals(503, statusOf(over));
            }
            awaitUnauthenticatedBytes(16 + 3 * (TestLrs.MAX_BODY - 1));
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
        awaitUnauthenticatedBytes(0);
        HttpResponse<String> get = alternate("method=GET", form("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET),
                "X-Experience-API-Version", "1.0.3"));
        assertEquals(200, get.statusCode(), get.body());
    }
}
