package dev.cairn.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.StreamSinkConduit;

/**
 * Gives the 400 that Undertow's own request parser sends (a bad request line, a header line too long or
 * malformed, an unknown protocol) the body and headers of every other refusal. Undertow writes that answer as one
 * fixed string straight to the connection, before any handler exists, and closes it; this conduit sits under
 * every connection's output, recognises exactly that string and writes Cairn's answer in its place. Every other
 * write passes through untouched after one length comparison.
 */
final class MalformedRequestConduit extends AbstractStreamSinkConduit<StreamSinkConduit> {
    /** Undertow 2.3's HttpReadListener.BAD_REQUEST, byte for byte. */
    static final byte[] UNDERTOW_BAD_REQUEST =
            "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final byte[] answer;
    private ByteBuffer pending;

    MalformedRequestConduit(StreamSinkConduit next, byte[] answer) {
        super(next);
        this.answer = answer;
    }

    /** The full HTTP response written instead of Undertow's bare 400. */
    static byte[] answer(String versionHeader, boolean anyOrigin) {
        StringBuilder body = new StringBuilder();
        body.append("{\"error\":\"request.malformed\",\"where\":\"request\",\"message\":");
        Responses.quote(body, "the request line or a header is not valid HTTP/1.1 (RFC 9112): percent-encode spaces "
                + "and control characters in the URL, keep each header on one line, and the request line and headers "
                + "under the server's size limit");
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
        if (pending == null && !isUndertowBadRequest(src)) {
            return next.write(src);
        }
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

    private static boolean isUndertowBadRequest(ByteBuffer src) {
        if (src.remaining() != UNDERTOW_BAD_REQUEST.length) {
            return false;
        }
        for (int i = 0; i < UNDERTOW_BAD_REQUEST.length; i++) {
            if (src.get(src.position() + i) != UNDERTOW_BAD_REQUEST[i]) {
                return false;
            }
        }
        return true;
    }
}
