package dev.cairn.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.util.Headers;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process-wide budget of body bytes held for requests not yet authenticated: the Alternate Request Syntax
 * forms that carry their credentials inside them. A request's bytes count from their arrival until its exchange
 * ends; past the budget a request gets 503 with Retry-After (and its connection is closed), so connections that
 * never authenticate cannot hold more memory than the budget.
 */
public final class UnauthenticatedBodies implements BodyBudget {
    private static final AttachmentKey<AtomicLong> HELD = AttachmentKey.create(AtomicLong.class);

    private final long budget;
    private final AtomicLong held = new AtomicLong();

    public UnauthenticatedBodies(long budget) {
        this.budget = budget;
    }

    @Override
    public boolean take(HttpServerExchange exchange, int bytes) {
        if (held.addAndGet(bytes) > budget) {
            held.addAndGet(-bytes);
            return false;
        }
        AtomicLong mine = exchange.getAttachment(HELD);
        if (mine == null) {
            AtomicLong fresh = new AtomicLong();
            exchange.putAttachment(HELD, fresh);
            exchange.addExchangeCompleteListener((ex, next) -> {
                held.addAndGet(-fresh.get());
                next.proceed();
            });
            mine = fresh;
        }
        mine.addAndGet(bytes);
        return true;
    }

    @Override
    public void refuse(HttpServerExchange exchange) {
        exchange.setPersistent(false);
        exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
        Responses.error(exchange, 503, "server.unauthenticated_bodies", "body", "the server holds as many bytes of "
                + "unauthenticated request bodies as it may; retry shortly, or send the credentials in an "
                + "Authorization header so that the form is read after they are verified");
    }

    /** The bytes held now (a gauge for /metrics). */
    public long held() {
        return held.get();
    }
}
