package dev.cairn.http;

import io.undertow.server.HttpServerExchange;

/** Counts the bytes of request bodies held in memory as they arrive ({@link BodyReceiver}). */
public interface BodyBudget {
    /** No bound: bodies of authenticated requests, which the size limit alone bounds. */
    BodyBudget NONE = (exchange, bytes) -> true;

    /**
     * Counts {@code bytes} more held for {@code exchange}. When that is past the budget, answers the exchange itself
     * and returns false: the receiver then keeps nothing more of the body.
     */
    boolean take(HttpServerExchange exchange, int bytes);
}
