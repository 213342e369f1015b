package dev.cairn.ops;

import dev.cairn.forward.Forwarding;
import dev.cairn.http.Responses;
import dev.cairn.log.DocumentWritten;
import dev.cairn.log.DocumentsDeleted;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.store.Watermark;
import dev.cairn.store.WatermarkTracker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operator's endpoints, outside /xapi and without authentication: {@code /metrics} (Prometheus text),
 * {@code /health/live} (the process answers) and {@code /health/ready} (the projector is within the allowed lag,
 * nothing is known to hold the watermark back and, in a process that runs a projector, it has not stopped). Also
 * registers the projector lag gauges.
 *
 * <p>The lag is measured from the log's end, not from what the projector last did: the entries the watermark has
 * not passed, and how long the oldest of them has waited (since the sequencer stamped it). So a projector that
 * stopped moving is never reported ready, whatever it last said.
 */
final class Health {
    private final EventLog log;
    private final WatermarkTracker tracker;
    private final long readyLagMillis;
    private final BooleanSupplier projectorRunning;
    /** Null while the disks have their reserve free, else what is short. */
    private final Supplier<String> diskShortfall;
    /** Each forwarding target's lag (none in a process that does not forward): shown, never a reason to be unready. */
    private final Supplier<Map<String, Forwarding.Lag>> forwarding;
    /** The time of the entry after the watermark, read from the log once per watermark. */
    private volatile Oldest oldest = new Oldest(Long.MIN_VALUE, 0);

    private record Oldest(long afterIndex, long millis) {
    }

    Health(EventLog log, WatermarkTracker tracker, long readyLagMillis, BooleanSupplier projectorRunning, MeterRegistry metrics,
           Supplier<String> diskShortfall, Supplier<Map<String, Forwarding.Lag>> forwarding) {
        this.log = log;
        this.forwarding = forwarding;
        this.diskShortfall = diskShortfall;
        this.tracker = tracker;
        this.readyLagMillis = readyLagMillis;
        this.projectorRunning = projectorRunning;
        Gauge.builder("cairn.projector.lag.events", this, Health::lagEvents)
                .description("Log entries the projector has not applied yet").register(metrics);
        Gauge.builder("cairn.projector.lag.seconds", this, h -> h.lagMillis() / 1000.0)
                .description("How long the oldest log entry the projector has not applied yet has waited").register(metrics);
    }

    long lagEvents() {
        return log.entriesAfter(tracker.current().logIndex());
    }

    /** How long the oldest log entry after the watermark has waited; 0 when the watermark is at the log's end. */
    long lagMillis() {
        Watermark w = tracker.current();
        if (log.lastPosition() <= w.logIndex()) {
            return 0;
        }
        Oldest o = oldest;
        if (o.afterIndex() != w.logIndex()) {
            long stamped = stampedMillis(w);
            if (stamped < 0) { // not readable (yet): the watermark's own time, not remembered
                return Math.max(0, tracker.clock().millis() - w.storedMillis());
            }
            o = new Oldest(w.logIndex(), stamped);
            oldest = o;
        }
        return Math.max(0, tracker.clock().millis() - o.millis());
    }

    /** When the sequencer stamped the entry after {@code w}, or -1 when it cannot be read. */
    private long stampedMillis(Watermark w) {
        try (LogTailer tailer = log.tailer(w.logIndex())) {
            LogEntry e = tailer.next();
            if (e == null) {
                return -1;
            } else if (e.event() instanceof StatementsStored s && !s.statements().isEmpty()) {
                return s.statements().get(0).storedMillis();
            } else if (e.event() instanceof DocumentWritten d) {
                return d.updatedMillis();
            } else if (e.event() instanceof DocumentsDeleted d) {
                return d.updatedMillis();
            }
            return -1;
        } catch (RuntimeException e) {
            return -1; // an entry that cannot be read holds the projector back too; its report says why
        }
    }

    /** Why this process is not ready, or null when it is. */
    private String notReady(long lag, long events, boolean running) {
        if (!running) {
            return "projector: stopped";
        }
        String stall = tracker.stall();
        if (stall != null) {
            return stall;
        }
        if (lag > readyLagMillis) {
            return "projector: " + events + " log entries not applied yet, the oldest for " + lag + " ms";
        }
        return null;
    }

    HttpHandler live() {
        return exchange -> Responses.json(exchange, 200, "{\"status\":\"live\"}".getBytes(StandardCharsets.US_ASCII));
    }

    HttpHandler ready() {
        return exchange -> {
            long lag = lagMillis();
            long events = lagEvents();
            boolean running = projectorRunning.getAsBoolean();
            String disk = diskShortfall.get();
            String reason = disk != null ? "disk below reserve: " + disk : notReady(lag, events, running);
            StringBuilder body = new StringBuilder(160).append("{\"status\":\"")
                    .append(reason == null ? "ready" : "not ready").append('"');
            if (reason != null) {
                Responses.quote(body.append(",\"reason\":"), reason);
            }
            body.append(",\"projectorLagMillis\":").append(lag).append(",\"projectorLagEvents\":").append(events)
                    .append(",\"projectorRunning\":").append(running).append(",\"readyLagMillis\":")
                    .append(readyLagMillis);
            Map<String, Forwarding.Lag> targets = forwarding.get();
            if (!targets.isEmpty()) {
                // a target that is down is the target's problem: its lag is shown, readiness does not depend on it
                body.append(",\"forwarding\":{");
                String comma = "";
                for (Map.Entry<String, Forwarding.Lag> t : targets.entrySet()) {
                    Responses.quote(body.append(comma), t.getKey());
                    body.append(":{\"lagEntries\":").append(t.getValue().entries()).append(",\"lagSeconds\":")
                            .append(String.format(java.util.Locale.ROOT, "%.3f", t.getValue().seconds()))
                            .append(",\"paused\":").append(t.getValue().paused());
                    if (t.getValue().failingSinceMillis() != 0) { // the status only: an error's text may name hosts
                        body.append(",\"failingSince\":\"")
                                .append(Instant.ofEpochMilli(t.getValue().failingSinceMillis())).append("\",\"lastStatus\":")
                                .append(t.getValue().lastStatus());
                    }
                    body.append('}');
                    comma = ",";
                }
                body.append('}');
            }
            body.append('}');
            Responses.json(exchange, reason == null ? 200 : 503, body.toString().getBytes(StandardCharsets.UTF_8));
        };
    }

    static HttpHandler metrics(PrometheusMeterRegistry registry) {
        return exchange -> {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
            exchange.getResponseSender().send(registry.scrape());
        };
    }
}
