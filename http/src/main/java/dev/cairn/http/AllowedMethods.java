package dev.cairn.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.util.List;

/**
 * The methods one resource has: any other gets 405 with an {@code Allow} header listing them (RFC 9110 15.5.6),
 * before authentication, since no credential makes a resource grow a method. Methods compare case-sensitively
 * (RFC 9110 9.1), so {@code get} is not GET; a method Cairn does not know at all gets the same 405 rather than 501,
 * as the Allow header tells the client what to send instead. A CORS preflight handler can sit in front of this
 * one: nothing here answers OPTIONS specially.
 */
public final class AllowedMethods implements HttpHandler {
    private final List<String> methods;
    private final String allow;
    private final HttpHandler next;

    /** @param methods the resource's methods, as they are spelled on the wire (GET, HEAD, ...) */
    public AllowedMethods(List<String> methods, HttpHandler next) {
        this.methods = List.copyOf(methods);
        this.allow = String.join(", ", methods);
        this.next = next;
    }

    /** The value of the Allow header: the methods in the order given. */
    public String allow() {
        return allow;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String method = exchange.getRequestMethod().toString();
        if (methods.contains(method)) {
            next.handleRequest(exchange);
            return;
        }
        exchange.getResponseHeaders().put(Headers.ALLOW, allow);
        if (exchange.getRequestMethod().equals(Methods.HEAD)) {
            // "head" or "Head": Undertow compares methods without case and sends no body for any spelling of HEAD,
            // so none is announced either (a Content-Length without its bytes would desynchronise the connection).
            exchange.setStatusCode(405);
            exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, 0);
            exchange.endExchange();
            return;
        }
        Responses.error(exchange, 405, "method.not_allowed", "method",
                "this resource has no " + printable(method) + " method; use " + allow + " (methods are case-sensitive)");
    }

    /** The method as the message shows it: a method token is short ASCII, anything else is cut and escaped. */
    private static String printable(String method) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < method.length() && i < 32; i++) {
            char c = method.charAt(i);
            b.append(c > ' ' && c < 0x7f ? c : '?');
        }
        return method.length() > 32 ? b + "..." : b.toString();
    }
}
