package dev.cairn.http;

import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.StreamSinkConduit;
import org.xnio.conduits.StreamSourceConduit;

/**
 * Gives the 400s that Undertow makes before any handler of Cairn's runs the body and headers of every other
 * refusal. Its request parser (a bad request line, a header line too long or malformed) writes one fixed string
 * straight to the connection; its Host check (no Host header, two of them, a malformed one), which wraps every
 * root handler, answers 400 with a reason phrase of its own and no body. Both close the connection. This conduit
 * sits under every connection's output, recognises exactly those answers and writes Cairn's in their place.
 * Cairn's own responses never carry a reason phrase other than the standard one, so a 400 with another phrase is
 * Undertow's. Every other write passes through after a length or prefix comparison.
 *
 * <p>While a request is in Cairn's handlers ({@link #answering}, from the root handler until the exchange ends),
 * nothing is compared at all: what is written then is Cairn's response, and its body may hold any bytes (a stored
 * document that ends with Undertow's 400, sent as its last slice, would otherwise be replaced).
 */
final class MalformedRequestConduit extends AbstractStreamSinkConduit<StreamSinkConduit> {
    /** Undertow 2.3's HttpReadListener.BAD_REQUEST, byte for byte. */
    static final byte[] UNDERTOW_BAD_REQUEST =
            "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] STATUS_400 = "HTTP/1.1 400 ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] STANDARD_REASON = "Bad Request\r\n".getBytes(StandardCharsets.US_ASCII);
    /** The longest header block of a bodiless Undertow refusal (status line, Content-Length, Connection, Date). */
    private static final int MAX_REFUSAL_HEAD = 512;

    /** Clears {@link #handling} when the exchange the root handler took ends. */
    private static final ExchangeCompletionListener HANDLED = (exchange, next) -> {
        MalformedRequestConduit out = of(exchange);
        if (out != null) {
            out.handling = false;
        }
        next.proceed();
    };

    private final byte[] answer;
    private ByteBuffer pending;
    /** Whether Cairn's handlers are answering a request on this connection: every write is theirs. */
    private volatile boolean handling;

    MalformedRequestConduit(StreamSinkConduit next, byte[] answer) {
        super(next);
        this.answer = answer;
    }

    /**
     * The connection's input, unchanged, carrying its output's conduit so that the root handler can find it from an
     * exchange ({@link HttpServerConnection#getOriginalSourceConduit()}). Undertow's READ_TIMEOUT and IDLE_TIMEOUT
     * would wrap the input above it and hide it (Cairn sets neither: its deadlines are its own).
     */
    static final class Carrier extends AbstractStreamSourceConduit<StreamSourceConduit> {
        private final MalformedRequestConduit out;

        Carrier(StreamSourceConduit next, MalformedRequestConduit out) {
            super(next);
            this.out = out;
        }
    }

    /** Marks the exchange's connection as written by Cairn's handlers until the exchange ends. */
    static void answering(HttpServerExchange exchange) {
        MalformedRequestConduit out = of(exchange);
        if (out != null) {
            out.handling = true;
            exchange.addExchangeCompleteListener(HANDLED);
        }
    }

    private static MalformedRequestConduit of(HttpServerExchange exchange) {
        return exchange.getConnection() instanceof HttpServerConnection c
                && c.getOriginalSourceConduit() instanceof Carrier carrier ? carrier.out : null;
    }

    /** The full HTTP response written instead of Undertow's bare 400. */
    static byte[] answer(String versionHeader, boolean anyOrigin) {
        StringBuilder body = new StringBuilder();
        body.append("{\"error\":\"request.malformed\",\"where\":\"request\",\"message\":");
        Responses.quote(body, "the request line or a header is not valid HTTP/1.1 (RFC 9112): percent-encode spaces "
                + "and control characters in the URL, send one Host header, keep each header on one line, and the "
                + "request line and headers under the server's size limit");
        body.append('}');
        byte[] json = body.toString().getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: " + json.length
                + "\r\nConnection: close\r\n" + Exchanges.VERSION_HEADER + ": " + versionHeader + "\r\n"
                + (anyOrigin ? CorsHandler.ALLOW_ORIGIN + ": *\r\n" + CorsHandler.EXPOSE_HEADERS + ": "
                        + CorsHandler.EXPOSED + "\r\n" : "")
                + "\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[headBytes.length + json.length];
        System.arraycopy(headBytes, 0, out, 0, headBytes.length);
        System.arraycopy(json, 0, out, headBytes.length, json.length);
        return out;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (handling || pending == null && !isUndertowRefusal(src)) {
            return next.write(src);
        }
        return replace(src);
    }

    @Override
    public int writeFinal(ByteBuffer src) throws IOException {
        if (handling || pending == null && !isUndertowRefusal(src)) {
            return next.writeFinal(src);
        }
        int n = replace(src);
        if (pending == null) {
            next.terminateWrites();
        }
        return n;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offs, int len) throws IOException {
        if (handling) {
            return next.write(srcs, offs, len);
        }
        ByteBuffer only = single(srcs, offs, len);
        if (pending == null && (only == null || !isUndertowRefusal(only))) {
            return next.write(srcs, offs, len);
        }
        return replace(only);
    }

    @Override
    public long writeFinal(ByteBuffer[] srcs, int offs, int len) throws IOException {
        if (handling) {
            return next.writeFinal(srcs, offs, len);
        }
        ByteBuffer only = single(srcs, offs, len);
        if (pending == null && (only == null || !isUndertowRefusal(only))) {
            return next.writeFinal(srcs, offs, len);
        }
        int n = replace(only);
        if (pending == null) {
            next.terminateWrites();
        }
        return n;
    }

    /** Writes Cairn's answer in place of {@code src}; {@code src} counts as written once all of it is out. */
    private int replace(ByteBuffer src) throws IOException {
        if (pending == null) {
            pending = ByteBuffer.wrap(answer);
        }
        next.write(pending);
        if (pending.hasRemaining()) {
            return 0; // the caller keeps its buffer and writes again when the socket can take more
        }
        int consumed = src.remaining();
        src.position(src.limit());
        return consumed;
    }

    /** The one buffer with bytes among {@code srcs}, or null when there are none or several. */
    private static ByteBuffer single(ByteBuffer[] srcs, int offs, int len) {
        ByteBuffer found = null;
        for (int i = offs; i < offs + len; i++) {
            if (srcs[i].hasRemaining()) {
                if (found != null) {
                    return null;
                }
                found = srcs[i];
            }
        }
        return found;
    }

    private static boolean isUndertowRefusal(ByteBuffer src) {
        int n = src.remaining();
        if (n < STATUS_400.length + 4 || n > MAX_REFUSAL_HEAD || !startsWith(src, STATUS_400, 0)) {
            return false;
        }
        if (n == UNDERTOW_BAD_REQUEST.length && startsWith(src, UNDERTOW_BAD_REQUEST, 0)) {
            return true;
        }
        int p = src.position();
        boolean wholeHead = src.get(p + n - 4) == '\r' && src.get(p + n - 3) == '\n' && src.get(p + n - 2) == '\r'
                && src.get(p + n - 1) == '\n';
        return wholeHead && !startsWith(src, STANDARD_REASON, STATUS_400.length);
    }

    private static boolean startsWith(ByteBuffer src, byte[] prefix, int at) {
        if (src.remaining() < at + prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (src.get(src.position() + at + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
