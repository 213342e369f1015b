package dev.cairn.ops;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.concurrent.TimeUnit;

/**
 * Times every request by resource, method and status ({@code cairn.http.requests}), measured from arrival to the
 * end of the response, whichever thread finishes it.
 */
final class HttpMetricsHandler implements HttpHandler {
    private final MeterRegistry metrics;
    private final HttpHandler next;

    HttpMetricsHandler(MeterRegistry metrics, HttpHandler next) {
        this.metrics = metrics;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        long start = System.nanoTime();
        exchange.addExchangeCompleteListener((ex, nextListener) -> {
            Timer.builder("cairn.http.requests").description("HTTP requests by resource, method and status")
                    .tag("resource", resource(ex.getRequestPath()))
                    .tag("method", method(ex.getRequestMethod().toString()))
                    .tag("status", String.valueOf(ex.getStatusCode()))
                    .register(metrics)
                    .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            nextListener.proceed();
        });
        next.handleRequest(exchange);
    }

    /** A bounded set of tag values: a client can send any method token, and each would be a new series. */
    static String method(String method) {
        return switch (method) {
            case "GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT" -> method;
            default -> "other";
        };
    }

    /** A bounded set of tag values: the resource, never the raw path (ids would explode the series). */
    static String resource(String path) {
        if (path.startsWith("/xapi/statements/more/")) {
            return "statements_more";
        }
        return switch (path) {
            case "/xapi/statements" -> "statements";
            case "/xapi/activities/state" -> "state";
            case "/xapi/activities/profile" -> "activity_profile";
            case "/xapi/agents/profile" -> "agent_profile";
            case "/xapi/activities" -> "activities";
            case "/xapi/agents" -> "agents";
            case "/xapi/about" -> "about";
            case "/metrics" -> "metrics";
            case "/health/live", "/health/ready" -> "health";
            default -> "other";
        };
    }
}
