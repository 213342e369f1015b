package dev.cairn.http;

import io.undertow.server.HttpServerExchange;

/** Counts the bytes of request bodies held in memory as they arrive ({@link BodyReceiver}). */
public interface BodyBudget {
    /** No bound: bodies of authenticated requests, which the size limit alone bounds. */
    BodyBudget NONE = new BodyBudget() {
        @Override
        public boolean take(HttpServerExchange exchange, int bytes) {
            return true;
        }

        @Override
        public void refuse(HttpServerExchange exchange) {
            throw new IllegalStateException("an unbounded budget refuses nothing");
        }
    };

    /** Counts {@code bytes} more held for {@code exchange}; false (counting nothing) when that is past the budget. */
    boolean take(HttpServerExchange exchange, int bytes);

    /** Answers a request whose bytes were past the budget; the rest of its body is not read. */
    void refuse(HttpServerExchange exchange);
}
