package dev.cairn.query;

import dev.cairn.http.Responses;
import dev.cairn.store.StoreException;
import dev.cairn.xapi.XapiException;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a read handler on a worker thread (its JDBC calls block) and turns what it throws into answers: a bad
 * parameter into 400 with its code and place, a database failure into 503 that the client may retry.
 */
public final class OnWorker implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(OnWorker.class);

    private final HttpHandler next;

    public OnWorker(HttpHandler next) {
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this);
            return;
        }
        try {
            next.handleRequest(exchange);
        } catch (XapiException e) {
            Responses.badRequest(exchange, e);
        } catch (StoreException e) {
            LOG.warn("{} {}: {}", exchange.getRequestMethod(), exchange.getRequestPath(), e.getMessage());
            exchange.getResponseHeaders().put(io.undertow.util.Headers.RETRY_AFTER, "1");
            // The store's text names internals (its URL, its driver, its SQL): the log has it, the client does not.
            Responses.error(exchange, 503, "store.unavailable", "database",
                    "the database could not answer; retry shortly");
        }
    }
}
