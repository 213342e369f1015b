package dev.cairn.ops;

import dev.cairn.http.Responses;
import dev.cairn.log.EventLog;
import dev.cairn.store.WatermarkTracker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operator's endpoints, outside /xapi and without authentication: {@code /metrics} (Prometheus text),
 * {@code /health/live} (the process answers) and {@code /health/ready} (the projector is within the allowed lag
 * and, in a process that runs one, has not stopped). Also registers the projector lag gauges.
 */
final class Health {
    private final EventLog log;
    private final WatermarkTracker tracker;
    private final long readyLagMillis;
    private final BooleanSupplier projectorRunning;
    /** Null while the disks have their reserve free, else what is short. */
    private final Supplier<String> diskShortfall;

    Health(EventLog log, WatermarkTracker tracker, long readyLagMillis, BooleanSupplier projectorRunning, MeterRegistry metrics,
           Supplier<String> diskShortfall) {
        this.log = log;
        this.diskShortfall = diskShortfall;
        this.tracker = tracker;
        this.readyLagMillis = readyLagMillis;
        this.projectorRunning = projectorRunning;
        Gauge.builder("cairn.projector.lag.events", this, Health::lagEvents)
                .description("Log entries the projector has not applied yet").register(metrics);
        Gauge.builder("cairn.projector.lag.seconds", this, h -> h.lagMillis() / 1000.0)
                .description("How far Consistent-Through is behind now").register(metrics);
    }

    long lagEvents() {
        return log.entriesAfter(tracker.current().logIndex());
    }

    long lagMillis() {
        return Math.max(0, tracker.clock().millis() - tracker.consistentThroughMillis());
    }

    HttpHandler live() {
        return exchange -> Responses.json(exchange, 200, "{\"status\":\"live\"}".getBytes(StandardCharsets.US_ASCII));
    }

    HttpHandler ready() {
        return exchange -> {
            long lag = lagMillis();
            boolean running = projectorRunning.getAsBoolean();
            String disk = diskShortfall.get();
            boolean ready = running && lag <= readyLagMillis && disk == null;
            StringBuilder body = new StringBuilder("{\"status\":\"").append(ready ? "ready" : "not ready")
                    .append("\",\"projectorLagMillis\":").append(lag).append(",\"projectorLagEvents\":").append(lagEvents())
                    .append(",\"projectorRunning\":").append(running).append(",\"readyLagMillis\":").append(readyLagMillis);
            if (disk != null) {
                Responses.quote(body.append(",\"disk\":"), "below reserve: " + disk);
            }
            Responses.json(exchange, ready ? 200 : 503, body.append('}').toString().getBytes(StandardCharsets.UTF_8));
        };
    }

    static HttpHandler metrics(PrometheusMeterRegistry registry) {
        return exchange -> {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
            exchange.getResponseSender().send(registry.scrape());
        };
    }
}
