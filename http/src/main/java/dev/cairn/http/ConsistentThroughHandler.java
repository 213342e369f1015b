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
    /** The last time written, which the requests until the projector's next commit share. */
    private volatile Formatted last = new Formatted(Long.MIN_VALUE, "");

    private record Formatted(long millis, String text) {
    }

    public ConsistentThroughHandler(LongSupplier consistentThroughMillis, HttpHandler next) {
        this.consistentThroughMillis = consistentThroughMillis;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        long millis = consistentThroughMillis.getAsLong();
        Formatted f = last;
        if (f.millis() != millis) {
            f = new Formatted(millis, Timestamps.format(millis));
            last = f;
        }
        exchange.getResponseHeaders().put(Exchanges.CONSISTENT_THROUGH, f.text());
        next.handleRequest(exchange);
    }
}
