package dev.cairn.http;

import dev.cairn.xapi.Timestamps;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.function.LongSupplier;

/**
 * Adds X-Experience-API-Consistent-Through to every Statement resource response, errors included (Comm 2.1.3):
 * the time up to which every stored statement is visible to queries.
 */
public final class ConsistentThroughHandler implements HttpHandler {
    private final LongSupplier consistentThroughMillis;
    private final HttpHandler next;

    public ConsistentThroughHandler(LongSupplier consistentThroughMillis, HttpHandler next) {
        this.consistentThroughMillis = consistentThroughMillis;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        exchange.getResponseHeaders().put(Exchanges.CONSISTENT_THROUGH,
                Timestamps.format(consistentThroughMillis.getAsLong()));
        next.handleRequest(exchange);
    }
}
