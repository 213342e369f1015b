package dev.cairn.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.xnio.IoUtils;
import org.xnio.XnioExecutor;

/**
 * A total deadline for a request's body, counted from the end of its headers. A per-read timeout never fires on a
 * client that sends a byte every few seconds; this one does. When it passes and the body has not arrived whole,
 * the {@link BodyReceiver} reading it answers 408; a body nobody reads (Undertow drains it after the response)
 * loses its connection. Requests without a body cost nothing here.
 */
public final class BodyDeadlineHandler implements HttpHandler {
    private static final AttachmentKey<Deadline> DEADLINE = AttachmentKey.create(Deadline.class);

    private final long timeoutMillis;
    private final HttpHandler next;

    public BodyDeadlineHandler(long timeoutMillis, HttpHandler next) {
        this.timeoutMillis = timeoutMillis;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        if (!exchange.isRequestComplete()) {
            Deadline deadline = new Deadline(exchange, timeoutMillis);
            exchange.putAttachment(DEADLINE, deadline);
            XnioExecutor.Key key = exchange.getIoThread().executeAfter(deadline, timeoutMillis, TimeUnit.MILLISECONDS);
            exchange.addExchangeCompleteListener((ex, listeners) -> {
                key.remove();
                listeners.proceed();
            });
        }
        next.handleRequest(exchange);
    }

    /**
     * Makes {@code onExpiry} (called with the exchange and the timeout) what happens when the deadline of the
     * exchange passes while its body is being read; without a deadline, nothing.
     */
    static void whileReading(HttpServerExchange exchange, BiConsumer<HttpServerExchange, Long> onExpiry) {
        Deadline deadline = exchange.getAttachment(DEADLINE);
        if (deadline != null) {
            deadline.onExpiry = onExpiry;
        }
    }

    private static final class Deadline implements Runnable {
        private final HttpServerExchange exchange;
        private final long timeoutMillis;
        private volatile BiConsumer<HttpServerExchange, Long> onExpiry;

        Deadline(HttpServerExchange exchange, long timeoutMillis) {
            this.exchange = exchange;
            this.timeoutMillis = timeoutMillis;
        }

        @Override
        public void run() {
            if (exchange.isRequestComplete()) {
                return;
            }
            BiConsumer<HttpServerExchange, Long> reader = onExpiry;
            if (reader != null) {
                reader.accept(exchange, timeoutMillis);
            } else {
                IoUtils.safeClose(exchange.getConnection());
            }
        }
    }
}
