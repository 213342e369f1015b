package dev.cairn.http;

import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Sending responses. Errors are JSON objects with a stable {@code error} code, {@code where} the problem is (a
 * JSON path, a parameter or a header) and a {@code message} for the client developer.
 */
public final class Responses {
    private Responses() {
    }

    /**
     * The most of a response written to the socket at once. A socket write of a heap buffer first copies all of
     * it into a temporary direct buffer, which the JDK then keeps for the thread (up to
     * {@code jdk.nio.maxCachedBufferSize}): one write of a whole large body would hold that much off-heap memory
     * per thread, and copy the rest again on every partial write.
     */
    private static final int SLICE = 128 << 10;

    public static void json(HttpServerExchange exchange, int status, byte[] body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        send(exchange, body);
    }

    /** Sends {@code body} as the whole response (status and Content-Type already set), in slices of {@link #SLICE}. */
    public static void send(HttpServerExchange exchange, byte[] body) {
        if (body.length <= SLICE) {
            exchange.getResponseSender().send(ByteBuffer.wrap(body));
            return;
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
        new Slices(body).onComplete(exchange, exchange.getResponseSender());
    }

    /** Sends the next slice each time the previous one is written (the sender loops; it does not recurse). */
    private static final class Slices implements IoCallback {
        private final byte[] body;
        private int sent;

        Slices(byte[] body) {
            this.body = body;
        }

        @Override
        public void onComplete(HttpServerExchange exchange, Sender sender) {
            if (sent == body.length) {
                IoCallback.END_EXCHANGE.onComplete(exchange, sender);
                return;
            }
            int n = Math.min(SLICE, body.length - sent);
            ByteBuffer slice = ByteBuffer.wrap(body, sent, n);
            sent += n;
            sender.send(slice, this);
        }

        @Override
        public void onException(HttpServerExchange exchange, Sender sender, IOException exception) {
            IoCallback.END_EXCHANGE.onException(exchange, sender, exception);
        }
    }

    public static void noContent(HttpServerExchange exchange) {
        exchange.setStatusCode(204);
        exchange.endExchange();
    }

    public static void error(HttpServerExchange exchange, int status, String code, String where, String message) {
        StringBuilder b = new StringBuilder(96 + message.length());
        b.append("{\"error\":");
        quote(b, code);
        b.append(",\"where\":");
        quote(b, where);
        b.append(",\"message\":");
        quote(b, message);
        b.append('}');
        json(exchange, status, b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Appends {@code s} as a JSON string. */
    public static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
