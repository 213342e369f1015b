package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.xapi.Timestamps;
import io.undertow.server.HttpServerExchange;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Every response carries the time the projection is consistent through now, not the one a request before saw. */
class ConsistentThroughHandlerTest {
    @Test
    void theHeaderFollowsTheWatermarkFromRequestToRequest() throws Exception {
        AtomicLong through = new AtomicLong(1_764_000_000_000L);
        ConsistentThroughHandler handler = new ConsistentThroughHandler(through::get, exchange -> { });
        for (long millis : new long[] {1_764_000_000_000L, 1_764_000_000_000L, 1_764_000_000_001L, 1_764_000_000_000L,
                0L}) {
            through.set(millis);
            HttpServerExchange exchange = new HttpServerExchange(null);
            handler.handleRequest(exchange);
            assertEquals(Timestamps.format(millis), exchange.getResponseHeaders().getFirst(Exchanges.CONSISTENT_THROUGH));
        }
    }
}
