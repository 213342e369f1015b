package dev.cairn.http;

import dev.cairn.xapi.XapiException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Sending responses. Errors are JSON objects with a stable {@code error} code, {@code where} the problem is (a
 * JSON path, a parameter or a header) and a {@code message} for the client developer.
 */
public final class Responses {
    private Responses() {
    }

    public static void json(HttpServerExchange exchange, int status, byte[] body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(ByteBuffer.wrap(body));
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

    public static void badRequest(HttpServerExchange exchange, XapiException e) {
        error(exchange, 400, e.code(), e.where(), e.getMessage());
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
