package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How a request body is framed, over raw sockets: chunked past the limit and transfer codings Cairn does not read
 * each get their JSON error, and the connection is closed when the rest of the request cannot be told from the
 * next one.
 */
class RequestFramingTest {
    private static final long MAX_BODY = 64 << 10;
    private static final String STATEMENT = "{\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
            + "\"verb\":{\"id\":\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\"}}";

    @TempDir
    Path data;
    TestLrs lrs;

    @BeforeEach
    void start() throws Exception {
        lrs = new TestLrs(TestLrs.settings(data, null).with(Map.of("max-body", String.valueOf(MAX_BODY))));
    }

    @AfterEach
    void stop() {
        lrs.close();
    }

    private static String post(String framing) {
        return "POST /xapi/statements HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                + TestLrs.basic(TestLrs.KEY, TestLrs.SECRET) + "\r\nX-Experience-API-Version: 2.0.0\r\n"
                + "Content-Type: application/json\r\n" + framing + "\r\n";
    }

    private static String errorCode(RawConnection.Response r) throws IOException {
        return TestLrs.JSON.readTree(r.body()).get("error").asText();
    }

    private int storedStatements() throws Exception {
        return TestLrs.json(lrs.get("/xapi/statements")).get("statements").size();
    }

    @Test
    void aChunkedBodyPastTheLimitGets413AndItsConnectionClosesWithoutReadingTheRest() throws Exception {
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post("Transfer-Encoding: chunked\r\n"));
            byte[] chunk = ("4000\r\n" + "x".repeat(0x4000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            CompletableFuture<Long> sent = CompletableFuture.supplyAsync(() -> {
                long n = 0;
                try {
                    while (n < (1L << 30)) { // a client that would send a GiB
                        c.send(chunk);
                        n += chunk.length;
                    }
                } catch (IOException e) {
                    // the server closed the connection
                }
                return n;
            });
            RawConnection.Response r = c.read(10_000);
            assertNotNull(r, "an answer, not a dropped connection");
            assertEquals(413, r.status(), r.body());
            assertEquals("request.too_large", errorCode(r));
            assertEquals("close", r.headers().get("connection"));
            assertTrue(c.closedWithin(5_000));
            long written = sent.get(30, TimeUnit.SECONDS);
            assertTrue(written < 64L << 20, "the server stopped reading after " + written + " bytes");
        }
    }

    @Test
    void transferEncodingIdentityGets400AtOnceInsteadOfBeingReadToTheEnd() throws Exception {
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post("Transfer-Encoding: identity\r\n") + STATEMENT); // and the client keeps its connection open
            RawConnection.Response r = c.read(5_000);
            assertNotNull(r, "answered while the client still waits");
            assertEquals(400, r.status(), r.body());
            assertEquals("request.framing", errorCode(r));
            assertTrue(c.closedWithin(5_000));
        }
        assertEquals(0, storedStatements());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "Transfer-Encoding: gzip|400|request.framing",
            "Transfer-Encoding: x-unknown|400|request.framing",
            "Transfer-Encoding: chunked, gzip|400|request.framing",
            "Transfer-Encoding: gzip, chunked|501|transfer_coding.unsupported"})
    void aTransferCodingOtherThanChunkedAloneIsRefusedAndClosesTheConnection(String headers, int status, String code)
            throws Exception {
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post(headers + "\r\n") + Integer.toHexString(STATEMENT.length()) + "\r\n" + STATEMENT + "\r\n0\r\n\r\n");
            RawConnection.Response r = c.read(5_000);
            assertNotNull(r);
            assertEquals(status, r.status(), r.body());
            assertEquals(code, errorCode(r));
            assertTrue(c.closedWithin(5_000));
        }
        assertEquals(0, storedStatements());
    }

    /** Undertow answers these itself, before any handler: a bare 400 that closes the connection. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"Transfer-Encoding: chunked~Content-Length: 10",
            "Transfer-Encoding: gzip~Transfer-Encoding: chunked", "Content-Length: 10~Content-Length: 10"})
    void anAmbiguousBodyLengthIsRefusedBeforeItIsRead(String headers) throws Exception {
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post(headers.replace("~", "\r\n") + "\r\n") + "a\r\n0123456789\r\n0\r\n\r\n");
            RawConnection.Response r = c.read(5_000);
            assertNotNull(r);
            assertEquals(400, r.status());
            assertTrue(c.closedWithin(5_000));
        }
        assertEquals(0, storedStatements());
    }

    @Test
    void aWellFormedChunkedBodyIsStoredAndKeepsItsConnection() throws Exception {
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            String half = STATEMENT.substring(0, 20);
            String rest = STATEMENT.substring(20);
            c.send(post("Transfer-Encoding: chunked\r\n") + Integer.toHexString(half.length()) + "\r\n" + half + "\r\n"
                    + Integer.toHexString(rest.length()) + "\r\n" + rest + "\r\n0\r\n\r\n");
            RawConnection.Response r = c.read(5_000);
            assertEquals(200, r.status(), r.body());
            c.send(post("Content-Length: " + STATEMENT.length() + "\r\n") + STATEMENT);
            assertEquals(200, c.read(5_000).status());
        }
        assertEquals(2, storedStatements());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"zz", " ", "-1", "FFFFFFFFFFFFFFFFFFFF", "0x10", "+a"})
    void aMalformedChunkSizeGets400AndTheConnectionClosesAfterIt(String size) throws Exception {
        // Undertow's chunk decoder closed the connection itself, before anything could answer (found by the fuzzer).
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post("Transfer-Encoding: chunked\r\n") + size + "\r\n" + STATEMENT + "\r\n0\r\n\r\n");
            RawConnection.Response r = c.read(5_000);
            assertEquals(400, r.status(), r.body());
            assertEquals("body.unreadable", errorCode(r));
            assertEquals("close", r.headers().get("connection"));
            assertTrue(c.closedWithin(5_000));
        }
        assertEquals(0, storedStatements());
    }

    @Test
    void aLastChunkFollowedByBytesThatAreNoTrailersGets400() throws Exception {
        // Found by the fuzzer: "0x10" reads as the last chunk, and Undertow's trailer parser threw an unchecked
        // exception on the bytes after it (a 500). These are the bytes the fuzzer sent.
        byte[] rest = java.util.Base64.getDecoder().decode("F0/22mkmStz2aYVJ22meM5aRRrmYOmuFPFYhV5xPr7dP9UVl6asZZmxfRY1a"
                + "+G/ALOSy8hcMS1Hv0XUgvmVJnS955m5muWpouGHPFMnxaCdg0gIGsc+R/OxTm+4EDqfAfY4D0+BCYx1T5bG6WJhS9U6HyovjhcjjBg0KMA0KDQo=");
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post("Transfer-Encoding: chunked\r\n") + "0x10\r\n");
            c.send(rest);
            RawConnection.Response r = c.read(5_000);
            assertEquals(400, r.status(), r.body());
            assertEquals("body.unreadable", errorCode(r));
        }
        assertEquals(0, storedStatements());
    }

    /**
     * Found by the fuzzer: Undertow took any two bytes after a chunk's data for its CRLF and a line without hex digits
     * for the last chunk, so "1", the first byte of a document and then the rest of it was stored as that one byte.
     * Each body here is read otherwise by a strict parser (RFC 9112 section 7.1): 400, nothing stored.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {
            "1;ext=\"open\r\n%s\r\n0\r\n\r\n", // the fuzzer's bytes: one byte of data, then the rest with no CRLF
            "1\r\n%s\r\n0\r\n\r\n", // the same without the extension
            "%x\r\n%sXX0\r\n\r\n", // two bytes that are not CRLF after the data
            "%x\n%s\n0\n\n", // bare LFs
            "%x;e=\u0001\r\n%s\r\n0\r\n\r\n", // a control character in an extension
            "%x\r\n%s\r\n0\r\nX-Trailer: a\u0000b\r\n\r\n"}) // and in a trailer
    void aChunkedBodyFramedOtherwiseThanRfc9112SaysGets400AndStoresNothing(String framing) throws Exception {
        String body = framing.contains("%x") ? String.format(framing, STATEMENT.length(), STATEMENT)
                : String.format(framing, STATEMENT);
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post("Transfer-Encoding: chunked\r\n") + body);
            RawConnection.Response r = c.read(5_000);
            assertEquals(400, r.status(), r.body());
            assertEquals("body.unreadable", errorCode(r));
            assertTrue(c.closedWithin(5_000), "the rest of the request cannot be told from the next one");
        }
        assertEquals(0, storedStatements());
    }

    @Test
    void chunkExtensionsTrailersAndPipelinedRequestsAreReadAsRfc9112Allows() throws Exception {
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            String chunked = post("Transfer-Encoding: chunked\r\n") + Integer.toHexString(STATEMENT.length())
                    + " ; name=\"a quoted; value\";flag\r\n" + STATEMENT + "\r\n000\r\nX-Trailer: ok\r\n\r\n";
            c.send(chunked + chunked); // two requests in one write: the second follows the first's last CRLF
            assertEquals(200, c.read(5_000).status());
            assertEquals(200, c.read(5_000).status());
        }
        assertEquals(2, storedStatements());
    }

    /**
     * Found by the fuzzer in CI: when the rest of a body and its last chunk arrived in one read after an earlier part,
     * the decoder ended the request before its reader had seen the data end, and Undertow ran the reader's last
     * callback nested in the one before: 500 for a well-formed body.
     */
    @Test
    void aChunkedBodyWhoseLastChunkArrivesWithTheRestOfItsDataIsStored() throws Exception {
        for (int split : new int[] {1, STATEMENT.length() / 2, STATEMENT.length() - 1}) {
            try (RawConnection c = new RawConnection(lrs.cairn.port())) {
                c.send(post("Transfer-Encoding: chunked\r\n") + Integer.toHexString(STATEMENT.length()) + "\r\n"
                        + STATEMENT.substring(0, split));
                Thread.sleep(50); // the first part is read alone, the rest with the last chunk
                c.send(STATEMENT.substring(split) + "\r\n0\r\n\r\n");
                RawConnection.Response r = c.read(5_000);
                assertEquals(200, r.status(), "split at " + split + ": " + r.body());
            }
        }
        assertEquals(3, storedStatements());
    }

    /** Extensions and trailers are read and ignored, so no data limit counts them: their own bound does. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"%x;e=%s\r\n%s\r\n0\r\n\r\n",
            "%x\r\n%s\r\n0\r\nX-T: %s\r\n\r\n"})
    void chunkExtensionsOrTrailersPastTheirBoundGet400AndStoreNothing(String framing) throws Exception {
        String huge = "a".repeat(8 * 1024 + 1); // one byte past StrictChunkedSource.MAX_FIELD_BYTES
        String body = framing.startsWith("%x;") ? String.format(framing, STATEMENT.length(), huge, STATEMENT)
                : String.format(framing, STATEMENT.length(), STATEMENT, huge);
        try (RawConnection c = new RawConnection(lrs.cairn.port())) {
            c.send(post("Transfer-Encoding: chunked\r\n") + body);
            RawConnection.Response r = c.read(5_000);
            assertEquals(400, r.status(), r.body());
            assertEquals("body.unreadable", errorCode(r));
        }
        assertEquals(0, storedStatements());
    }
}
