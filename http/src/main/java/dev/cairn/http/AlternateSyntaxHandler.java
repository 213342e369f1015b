package dev.cairn.http;

import dev.cairn.xapi.MediaTypes;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
 * travels as {@link Exchanges#BODY}, exactly the bytes the form encodes (so a statement that is not UTF-8 gets the
 * 400 a JSON body gets). xAPI 2.0 removed the syntax, so a 2.0 request that uses it gets 400.
 *
 * <p>Nothing is read before authentication when the POST carries an Authorization header: it is verified first.
 * A form that carries its credentials inside can only be read first, so it is read under the process's budget of
 * unauthenticated body bytes ({@link UnauthenticatedBodies}).
 */
public final class AlternateSyntaxHandler implements HttpHandler {
    private static final Set<String> HEADER_FIELDS = Set.of("authorization", "x-experience-api-version",
            "content-type", "content-length", "if-match", "if-none-match");
    private static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE");

    private final long maxBodyBytes;
    private final BodyBudget unauthenticated;
    private final CredentialCheck auth;
    private final HttpHandler next;

    /**
     * @param unauthenticated the budget a form without an Authorization header is read under: its credentials are
     *                        inside it, so it is held before anyone is authenticated
     */
    public AlternateSyntaxHandler(long maxBodyBytes, BodyBudget unauthenticated, CredentialCheck auth, HttpHandler next) {
        this.maxBodyBytes = maxBodyBytes;
        this.unauthenticated = unauthenticated;
        this.auth = auth;
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
        // Spelled exactly: Undertow's method names compare without case, and "post" is not POST (RFC 9110 9.1).
        if (!exchange.getRequestMethod().toString().equals("POST")) {
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
        if (!MediaTypes.hasEssence(type, "application/x-www-form-urlencoded")) {
            reject(exchange, answer, "header Content-Type", "content_type.unsupported", "the Alternate Request Syntax "
                    + "sends its fields as application/x-www-form-urlencoded (got "
                    + (type == null ? "no Content-Type" : "'" + type + "'") + ")");
            return;
        }
        String target = method.getFirst();
        exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, answer.header()); // for a 401, 413 or 503
        if (exchange.getRequestHeaders().contains(Headers.AUTHORIZATION)) {
            // Credentials in the header: verified before a byte of the form is read.
            new BasicAuthHandler(auth, ex -> BodyReceiver.receive(ex, maxBodyBytes,
                    form -> rewrite(ex, target, form, answer))).handleRequest(exchange);
        } else {
            BodyReceiver.receive(exchange, maxBodyBytes, unauthenticated, form -> rewrite(exchange, target, form, answer));
        }
    }

    private void rewrite(HttpServerExchange exchange, String method, byte[] form, XapiVersion answer) {
        Map<String, Deque<String>> params = exchange.getQueryParameters();
        params.clear();
        byte[] content = new byte[0];
        boolean contentType = false;
        exchange.getRequestHeaders().remove(Headers.CONTENT_TYPE);
        try {
            for (int start = 0, end; start < form.length; start = end + 1) {
                end = indexOf(form, (byte) '&', start, form.length);
                if (end == start) {
                    continue;
                }
                int eq = indexOf(form, (byte) '=', start, end);
                String name = text(decode(form, start, eq));
                if (name.equals("content")) { // the request's body: its bytes as sent, checked as any body is
                    content = decode(form, Math.min(eq + 1, end), end);
                    continue;
                }
                String value = text(decode(form, Math.min(eq + 1, end), end));
                String lower = name.toLowerCase(Locale.ROOT);
                if (HEADER_FIELDS.contains(lower)) {
                    if (!lower.equals("content-length")) { // the length is the content's, computed below
                        exchange.getRequestHeaders().put(new HttpString(name), value);
                        contentType |= lower.equals("content-type");
                    }
                } else {
                    exchange.addQueryParam(name, value);
                }
            }
        } catch (IllegalArgumentException | CharacterCodingException e) {
            reject(exchange, answer, "body", "form.malformed", "the form body is not valid "
                    + "application/x-www-form-urlencoded: " + (e instanceof CharacterCodingException
                    ? "a field other than content is not UTF-8" : e.getMessage()));
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
        } catch (Exception e) { // on the body's callback, where Undertow would not answer
            ErrorPolicy.fail(exchange, e);
        }
    }

    private static int indexOf(byte[] b, byte c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return to;
    }

    /** The bytes a form-urlencoded part stands for: '+' is a space, %XX a byte, every other byte itself. */
    private static byte[] decode(byte[] form, int from, int to) {
        byte[] out = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte b = form[i];
            if (b == '+') {
                out[n++] = ' ';
            } else if (b == '%') {
                int hi = i + 2 < to ? Character.digit(form[i + 1], 16) : -1;
                int lo = hi >= 0 ? Character.digit(form[i + 2], 16) : -1;
                if (lo < 0) {
                    throw new IllegalArgumentException("'%' at byte " + i + " is not followed by two hexadecimal digits");
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[n++] = b;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Decodes UTF-8 strictly: bytes that are not UTF-8 are refused, never replaced. */
    private static String text(byte[] utf8) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(utf8)).toString();
    }

    private static void reject(HttpServerExchange exchange, XapiVersion version, String where, String code,
                               String message) {
        exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, version.header());
        Responses.error(exchange, 400, code, where, message);
    }
}
