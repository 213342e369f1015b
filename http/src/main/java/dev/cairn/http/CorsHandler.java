package dev.cairn.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;

/**
 * CORS for browser content on another origin (the Fetch standard, "CORS protocol"), at the head of the chain so
 * it comes before authentication. A preflight ({@code OPTIONS} with {@code Origin} and
 * {@code Access-Control-Request-Method}) is answered here, 204, and nothing else is done. Every other request from
 * an allowed origin gets the allow-origin and exposed headers before any handler runs, so every response carries
 * them, errors included; {@code Access-Control-Allow-Credentials} goes only to origins the operator listed. A
 * request from an origin the policy does not allow gets 403 and is not processed: its
 * preflight is refused, and a request a browser sends without one (a form post) changes nothing either. The
 * administrative API ({@code /admin/}) refuses every request with an Origin: CORS is off for it.
 */
public final class CorsHandler implements HttpHandler {
    static final HttpString ALLOW_ORIGIN = new HttpString("Access-Control-Allow-Origin");
    static final HttpString ALLOW_CREDENTIALS = new HttpString("Access-Control-Allow-Credentials");
    static final HttpString ALLOW_METHODS = new HttpString("Access-Control-Allow-Methods");
    static final HttpString ALLOW_HEADERS = new HttpString("Access-Control-Allow-Headers");
    static final HttpString EXPOSE_HEADERS = new HttpString("Access-Control-Expose-Headers");
    static final HttpString MAX_AGE = new HttpString("Access-Control-Max-Age");
    static final HttpString REQUEST_METHOD = new HttpString("Access-Control-Request-Method");
    static final HttpString REQUEST_HEADERS = new HttpString("Access-Control-Request-Headers");
    static final HttpString SEC_FETCH_SITE = new HttpString("Sec-Fetch-Site");

    static final String METHODS = "GET, HEAD, PUT, POST, DELETE";
    /** The request headers xAPI clients send, and Cairn's own ({@code X-Cairn-Ack}). */
    static final String HEADERS = "Authorization, Content-Type, X-Experience-API-Version, If-Match, If-None-Match, "
            + "X-Cairn-Ack";
    /** The response headers content may read: what xAPI defines, and what tells a client when to retry. */
    public static final String EXPOSED = "ETag, Last-Modified, Content-Type, X-Experience-API-Version, "
            + "X-Experience-API-Consistent-Through, Retry-After, Allow, Location";
    /** Cairn's administrative API, which no browser content may call. */
    static final String ADMIN_PREFIX = "/admin/";
    /** A preflight may name many headers; more than this is not a browser's. */
    private static final int MAX_REQUEST_HEADERS_LENGTH = 1024;

    private final CorsPolicy policy;
    private final HttpHandler next;

    public CorsHandler(CorsPolicy policy, HttpHandler next) {
        this.policy = policy;
        this.next = next;
    }

    /**
     * A request browser content made: it names its origin, or the browser says a page started it (an image or a
     * navigation from a page sends no Origin, but Sec-Fetch-Site; a person typing the URL gets "none").
     */
    private static boolean fromBrowserContent(HeaderMap request, String origin) {
        String site = request.getFirst(SEC_FETCH_SITE);
        return origin != null || (site != null && !site.equals("none"));
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        HeaderMap request = exchange.getRequestHeaders();
        String origin = request.getFirst(Headers.ORIGIN);
        HeaderMap response = exchange.getResponseHeaders();
        if (!policy.anyOrigin()) {
            response.add(Headers.VARY, "Origin");
        }
        if (exchange.getRequestPath().startsWith(ADMIN_PREFIX) && fromBrowserContent(request, origin)) {
            Responses.error(exchange, 403, "cors.admin", origin != null ? "header Origin" : "header Sec-Fetch-Site",
                    "the administrative API under " + ADMIN_PREFIX + " answers no browser content (a request with "
                    + "an Origin header, or one a page started), whatever the allowed origins; call it from a "
                    + "script or the command line");
            return;
        }
        if (origin == null) {
            next.handleRequest(exchange);
            return;
        }
        boolean preflight = exchange.getRequestMethod().equals(Methods.OPTIONS) && request.contains(REQUEST_METHOD);
        if (!policy.allows(origin)) {
            Responses.error(exchange, 403, "cors.origin", "header Origin", "content from origin '" + origin
                    + "' may not call this LRS; its operator allows other origins (setting cors-origins)");
            return;
        }
        response.put(ALLOW_ORIGIN, origin);
        if (policy.anyOrigin()) {
            response.add(Headers.VARY, "Origin"); // the answer names the origin, so caches must key on it
        }
        if (!policy.anyOrigin()) {
            // Only origins the operator listed may send the browser's own credentials (cookies, a Basic login it
            // cached). With any origin allowed, a page elsewhere could otherwise read the LRS as whoever once typed
            // a key into the browser; xAPI content sends its Authorization header itself and needs no such thing.
            response.put(ALLOW_CREDENTIALS, "true");
        }
        if (!preflight) {
            response.put(EXPOSE_HEADERS, EXPOSED);
            next.handleRequest(exchange);
            return;
        }
        response.put(ALLOW_METHODS, METHODS);
        response.put(ALLOW_HEADERS, allowedHeaders(request.getFirst(REQUEST_HEADERS)));
        response.put(MAX_AGE, Long.toString(policy.maxAgeSeconds()));
        response.add(Headers.VARY, "Access-Control-Request-Method");
        response.add(Headers.VARY, "Access-Control-Request-Headers");
        Responses.noContent(exchange);
    }

    /**
     * Cairn's list, and the headers the preflight asks for when they are well-formed names: a client library may
     * send one more header (Cairn ignores headers it does not know), and the browser would otherwise refuse the
     * whole request.
     */
    static String allowedHeaders(String requested) {
        if (requested == null || requested.isEmpty() || requested.length() > MAX_REQUEST_HEADERS_LENGTH) {
            return HEADERS;
        }
        StringBuilder out = new StringBuilder(HEADERS);
        for (String raw : requested.split(",")) {
            String name = raw.trim();
            if (!name.isEmpty() && isToken(name) && !containsIgnoreCase(HEADERS, name)) {
                out.append(", ").append(name);
            }
        }
        return out.toString();
    }

    private static boolean containsIgnoreCase(String list, String name) {
        for (String entry : list.split(", ")) {
            if (entry.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** An RFC 9110 token: the only shape a header name has. */
    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
