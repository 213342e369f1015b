package dev.cairn.query;

import dev.cairn.http.ErrorPolicy;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;

/**
 * Runs a read handler on a worker thread (its JDBC calls block). What it throws (a bad parameter, a database that
 * cannot answer) goes to the {@link ErrorPolicy}, which answers it.
 */
public final class OnWorker implements HttpHandler {
    private final HttpHandler next;

    public OnWorker(HttpHandler next) {
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this);
            return;
        }
        try {
            next.handleRequest(exchange);
        } catch (Exception e) {
            ErrorPolicy.fail(exchange, e);
        }
    }
}
