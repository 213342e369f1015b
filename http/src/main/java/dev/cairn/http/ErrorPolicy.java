package dev.cairn.http;

import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.DefaultResponseListener;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.StatusCodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one error policy, at the head of the chain. Every response carries X-Experience-API-Version (Comm 3.3: "in
 * every response"), refusals made before {@link VersionHandler} runs (405, 401) included: the version the request
 * asks for when Cairn speaks it, else the fallback.
 * Whatever ends a request with an error status and no body — an
 * exception that escapes a handler on any thread (Undertow turns it into a 500 and ends the exchange), a handler
 * or Undertow itself ending it with a bare status — answers with the JSON shape of {@link Responses#error}. The
 * headers put on the exchange before that point (the xAPI version, CORS) stay. An exception's text goes to the
 * log with the request, never to the client: it may name internals, and it is no help to a client developer.
 */
public final class ErrorPolicy implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorPolicy.class);

    private static final DefaultResponseListener JSON_BODY = exchange -> {
        if (!exchange.isResponseChannelAvailable() || exchange.getStatusCode() < 400) {
            return false;
        }
        Throwable failure = exchange.getAttachment(DefaultResponseListener.EXCEPTION);
        if (failure instanceof XapiException e) {
            Responses.badRequest(exchange, e);
            return true;
        }
        int status = exchange.getStatusCode();
        if (failure != null) {
            LOG.error("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), failure);
        }
        String reason = StatusCodes.getReason(status);
        Responses.error(exchange, status, status >= 500 ? "server.error" : "request.refused", "request",
                status >= 500
                        ? "the server could not complete this request; its log names the failure at this time"
                        : "the request was refused: " + reason);
        return true;
    };

    /**
     * Ends {@code exchange} as Undertow ends one whose handler threw: for work a handler started on another thread
     * (a body's callback, a dispatched task), where an exception would otherwise leave the request unanswered.
     */
    public static void fail(HttpServerExchange exchange, Throwable failure) {
        exchange.putAttachment(DefaultResponseListener.EXCEPTION, failure);
        if (!exchange.isResponseStarted()) {
            exchange.setStatusCode(failure instanceof XapiException ? 400 : 500);
        }
        exchange.endExchange();
    }

    private final XapiVersion fallbackVersion;
    private final HttpHandler next;

    public ErrorPolicy(XapiVersion fallbackVersion, HttpHandler next) {
        this.fallbackVersion = fallbackVersion;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String asked = exchange.getRequestHeaders().getFirst(Exchanges.VERSION_HEADER);
        exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, asked == null ? fallbackVersion.header()
                : XapiVersion.fromHeader(asked).orElse(fallbackVersion).header());
        exchange.addDefaultResponseListener(JSON_BODY);
        next.handleRequest(exchange);
    }
}
