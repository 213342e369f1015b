package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.XapiVersion;
import io.undertow.UndertowOptions;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;

/**
 * Reading a request body within its limit and deadline, over a real connection: the whole body, 413 past the
 * limit, 400 for a body that cannot be read (past the limit too), 408 for one that does not arrive in time.
 */
class BodyReceiverTest {
    private static final int LIMIT = 1024;
    private static final long DEADLINE_MILLIS = 500;
    /** A chunk whose size is no hexadecimal number, and bytes after it for the decoder to read on. */
    private static final String MALFORMED = "zz\r\n" + "x".repeat(20) + "\r\n0\r\n\r\n";
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        // The body's length as the handler received it, so a test sees that the whole body arrived; on /echo the body.
        io.undertow.server.HttpHandler echoLength = exchange -> BodyReceiver.receive(exchange, LIMIT,
                body -> Responses.json(exchange, 200, exchange.getRequestPath().equals("/echo") ? body
                        : Integer.toString(body.length).getBytes(StandardCharsets.US_ASCII)));
        server = HttpServer.start("127.0.0.1", 0, new ErrorPolicy(XapiVersion.V2_0_0, e -> false,
                        new TransferCodingHandler(new BodyDeadlineHandler(DEADLINE_MILLIS, echoLength))),
                OptionMap.create(UndertowOptions.MAX_ENTITY_SIZE, BodyReceiver.undertowCap(LIMIT)), 100, 10_000,
                HttpServer.malformedAnswer("2.0.0", CorsPolicy.parse("*", 0)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** A response as read off the socket: the head, the body, and whether the server then closed the connection. */
    private record Answer(String head, String body, boolean closed) {
        int status() {
            return Integer.parseInt(head.substring(9, 12));
        }
    }

    /** Sends {@code request}, in pieces a while apart (each its own read on the server), and reads one response. */
    private Answer exchange(String... request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            s.setTcpNoDelay(true);
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < request.length; i++) {
                if (i > 0) {
                    Thread.sleep(100);
                }
                out.write(request[i].getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new AssertionError("no answer before the connection closed: " + head);
                }
                head.write(b);
            }
            String h = head.toString(StandardCharsets.ISO_8859_1);
            int length = Integer.parseInt(h.replaceAll("(?is).*\r\ncontent-length: *(\\d+).*", "$1"));
            byte[] body = in.readNBytes(length);
            boolean closed;
            s.setSoTimeout(1_000);
            try {
                closed = in.read() < 0;
            } catch (SocketTimeoutException e) {
                closed = false;
            }
            return new Answer(h, new String(body, StandardCharsets.UTF_8), closed);
        }
    }

    private static String post(String framing) {
        return "POST /x HTTP/1.1\r\nHost: x\r\n" + framing + "\r\n";
    }

    private static String chunk(int size) {
        return Integer.toHexString(size) + "\r\n" + "x".repeat(size) + "\r\n";
    }

    @Test
    void aBodyWithinTheLimitIsHandedOverWhole() throws Exception {
        Answer a = exchange(post("Content-Length: " + LIMIT + "\r\n") + "x".repeat(LIMIT));
        assertEquals(200, a.status(), a.body());
        assertEquals(Integer.toString(LIMIT), a.body());
    }

    @Test
    void aBodyThatArrivesInSeveralReadsIsHandedOverByteForByte() throws Exception {
        String head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\n";
        Answer a = exchange(head + "a".repeat(300), "b".repeat(300), "c".repeat(300));
        assertEquals("a".repeat(300) + "b".repeat(300) + "c".repeat(300), a.body());
    }

    @Test
    void aChunkedBodyThatArrivesInSeveralReadsIsHandedOverByteForByte() throws Exception {
        String head = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
        Answer a = exchange(head + "12c\r\n" + "a".repeat(300) + "\r\n", "12c\r\n" + "b".repeat(300) + "\r\n",
                "0\r\n\r\n");
        assertEquals("a".repeat(300) + "b".repeat(300), a.body());
    }

    @Test
    void anEmptyBodyIsHandedOverEmpty() throws Exception {
        Answer a = exchange(post("Content-Length: 0\r\n"));
        assertEquals(200, a.status(), a.body());
        assertEquals("0", a.body());
    }

    @Test
    void aChunkedBodyWithinTheLimitIsHandedOverWhole() throws Exception {
        Answer a = exchange(post("Transfer-Encoding: chunked\r\n") + chunk(600) + chunk(400) + "0\r\n\r\n");
        assertEquals("1000", a.body());
    }

    @Test
    void aDeclaredLengthPastWhatIsReadGets413AtOnceAndTheConnectionCloses() throws Exception {
        Answer a = exchange(post("Content-Length: " + (LIMIT + BodyReceiver.DISCARD_BYTES + 1) + "\r\n"));
        assertEquals(413, a.status());
        assertTrue(a.body().startsWith("{\"error\":\"request.too_large\",\"where\":\"body\""), a.body());
        assertTrue(a.closed());
    }

    @Test
    void aChunkedBodyPastTheLimitThatEndsSoonGets413AndKeepsItsConnection() throws Exception {
        Answer a = exchange(post("Transfer-Encoding: chunked\r\n") + chunk(LIMIT) + chunk(1) + "0\r\n\r\n");
        assertEquals(413, a.status());
        assertFalse(a.closed(), "the body was read to its end, so the connection can carry the next request");
    }

    @Test
    void aChunkedBodyThatPassesTheLimitOnALaterReadGets413AndKeepsItsConnection() throws Exception {
        // the first read (within the limit) is held as it came, the second takes the body past the limit
        String head = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
        Answer a = exchange(head + chunk(LIMIT - 10), chunk(20) + "0\r\n\r\n");
        assertEquals(413, a.status());
        assertFalse(a.closed(), "the body was read to its end, so the connection can carry the next request");
    }

    @Test
    void aMalformedChunkGets400BodyUnreadableAndTheConnectionCloses() throws Exception {
        Answer a = exchange(post("Transfer-Encoding: chunked\r\n") + chunk(10) + MALFORMED);
        assertEquals(400, a.status());
        assertTrue(a.body().startsWith("{\"error\":\"body.unreadable\""), a.body());
        assertTrue(a.closed());
    }

    @Test
    void aMalformedChunkAfterTheLimitIsStill400BodyUnreadableNot413() throws Exception {
        Answer a = exchange(post("Transfer-Encoding: chunked\r\n") + chunk(LIMIT) + chunk(100) + MALFORMED);
        assertEquals(400, a.status(), a.body());
        assertTrue(a.body().startsWith("{\"error\":\"body.unreadable\""), a.body());
        assertTrue(a.closed());
    }

    @Test
    void aBodyThatDoesNotArriveWithinTheDeadlineGets408AndTheConnectionCloses() throws Exception {
        Answer a = exchange(post("Content-Length: 100\r\n") + "x".repeat(10));
        assertEquals(408, a.status());
        assertTrue(a.body().startsWith("{\"error\":\"request.timeout\""), a.body());
        assertTrue(a.closed());
    }
}
