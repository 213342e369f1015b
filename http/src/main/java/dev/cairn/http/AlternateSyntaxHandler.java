package dev.cairn.http;

import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Alternate Request Syntax of xAPI 1.0.3 (Comm 1.3), for clients that can only send GET and POST: a POST with
 * the single query parameter {@code method} and an application/x-www-form-urlencoded body whose fields are the
 * request's headers (Authorization, X-Experience-API-Version, Content-Type, Content-Length, If-Match,
 * If-None-Match), its {@code content} and its parameters. The request is rewritten into the one it stands for
 * before authentication and version checks run, so it then goes through the same chain as any other; the content
 * travels as {@link Exchanges#BODY}. xAPI 2.0 removed the syntax, so a 2.0 request that uses it gets 400.
 */
public final class AlternateSyntaxHandler implements HttpHandler {
    private static final Set<String> HEADER_FIELDS = Set.of("authorization", "x-experience-api-version",
            "content-type", "content-length", "if-match", "if-none-match");
    private static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE");

    private final long maxBodyBytes;
    private final HttpHandler next;

    public AlternateSyntaxHandler(long maxBodyBytes, HttpHandler next) {
        this.maxBodyBytes = maxBodyBytes;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        Deque<String> method = exchange.getQueryParameters().get("method");
        if (method == null) {
            next.handleRequest(exchange);
            return;
        }
        String headerVersion = exchange.getRequestHeaders().getFirst(Exchanges.VERSION_HEADER);
        if (XapiVersion.fromHeader(headerVersion).orElse(null) == XapiVersion.V2_0_0) {
            reject(exchange, XapiVersion.V2_0_0, "parameter method", "syntax.unsupported",
                    "xAPI 2.0 has no Alternate Request Syntax; send the request with its own HTTP method and headers");
            return;
        }
        XapiVersion answer = XapiVersion.fromHeader(headerVersion).orElse(XapiVersion.V1_0_3);
        if (!exchange.getRequestMethod().equals(Methods.POST)) {
            reject(exchange, answer, "parameter method", "syntax.not_post",
                    "the Alternate Request Syntax is sent as POST; method= is not allowed on " + exchange.getRequestMethod());
            return;
        }
        if (method.size() != 1 || !METHODS.contains(method.getFirst())) {
            reject(exchange, answer, "parameter method", "parameter.invalid",
                    "method must be one of GET, PUT, POST, DELETE; got '" + String.join(",", method) + "'");
            return;
        }
        if (exchange.getQueryParameters().size() > 1) {
            List<String> extra = new ArrayList<>(exchange.getQueryParameters().keySet());
            extra.remove("method");
            reject(exchange, answer, "parameter " + extra.get(0), "parameter.unknown", "with the Alternate Request "
                    + "Syntax, method is the only query parameter; send " + extra.get(0) + " as a form field");
            return;
        }
        String type = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (type == null || !type.split(";", 2)[0].trim().equalsIgnoreCase("application/x-www-form-urlencoded")) {
            reject(exchange, answer, "header Content-Type", "content_type.unsupported", "the Alternate Request Syntax "
                    + "sends its fields as application/x-www-form-urlencoded (got "
                    + (type == null ? "no Content-Type" : "'" + type + "'") + ")");
            return;
        }
        String target = method.getFirst();
        exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, answer.header()); // for a 413
        BodyReceiver.receive(exchange, maxBodyBytes, form -> rewrite(exchange, target, form, answer));
    }

    private void rewrite(HttpServerExchange exchange, String method, byte[] form, XapiVersion answer) {
        Map<String, Deque<String>> params = exchange.getQueryParameters();
        params.clear();
        byte[] content = new byte[0];
        boolean contentType = false;
        exchange.getRequestHeaders().remove(Headers.CONTENT_TYPE);
        try {
            for (String pair : new String(form, StandardCharsets.UTF_8).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                String lower = name.toLowerCase(Locale.ROOT);
                if (name.equals("content")) {
                    content = value.getBytes(StandardCharsets.UTF_8);
                } else if (HEADER_FIELDS.contains(lower)) {
                    if (!lower.equals("content-length")) { // the length is the content's, computed below
                        exchange.getRequestHeaders().put(new HttpString(name), value);
                        contentType |= lower.equals("content-type");
                    }
                } else {
                    exchange.addQueryParam(name, value);
                }
            }
        } catch (IllegalArgumentException e) {
            reject(exchange, answer, "body", "form.malformed", "the form body is not valid "
                    + "application/x-www-form-urlencoded: " + e.getMessage());
            return;
        }
        String version = exchange.getRequestHeaders().getFirst(Exchanges.VERSION_HEADER);
        if (XapiVersion.fromHeader(version).orElse(null) == XapiVersion.V2_0_0) {
            reject(exchange, XapiVersion.V2_0_0, "parameter method", "syntax.unsupported",
                    "xAPI 2.0 has no Alternate Request Syntax; send the request with its own HTTP method and headers");
            return;
        }
        if (!contentType && content.length > 0) {
            exchange.getRequestHeaders().put(Headers.CONTENT_TYPE, "application/json");
        }
        exchange.getRequestHeaders().put(Headers.CONTENT_LENGTH, content.length);
        exchange.setRequestMethod(HttpString.tryFromString(method));
        exchange.putAttachment(Exchanges.BODY, content);
        try {
            next.handleRequest(exchange);
        } catch (Exception e) {
            Responses.error(exchange, 500, "server.error", "server", "the request failed: " + e.getMessage());
        }
    }

    private static void reject(HttpServerExchange exchange, XapiVersion version, String where, String code,
                               String message) {
        exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, version.header());
        Responses.error(exchange, 400, code, where, message);
    }
}
