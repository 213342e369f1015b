package dev.cairn.forward;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per target: statements delivered, dead-lettered and skipped (of a version it cannot take), retried POSTs, and the
 * lag behind the log's end in entries and seconds ({@code cairn_forward_*{target=NAME}}).
 */
final class ForwardMetrics {
    private final MeterRegistry registry;
    private final Map<String, List<Meter>> meters = new ConcurrentHashMap<>();

    ForwardMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void register(Forwarder f) {
        String name = f.target().name();
        List<Meter> m = new ArrayList<>();
        m.add(Gauge.builder("cairn_forward_lag_entries", f, Forwarder::lagEntries).tag("target", name)
                .description("Log entries after the target's cursor").register(registry));
        m.add(Gauge.builder("cairn_forward_lag_seconds", f, x -> x.lagMillis() / 1000.0).tag("target", name)
                .description("How long the oldest statement not yet delivered to the target has waited")
                .register(registry));
        meters.put(name, m);
    }

    void unregister(String name) {
        List<Meter> m = meters.remove(name);
        if (m != null) {
            m.forEach(registry::remove);
        }
        for (String counter : List.of("cairn_forward_delivered", "cairn_forward_dead_lettered",
                "cairn_forward_skipped", "cairn_forward_retries")) {
            Meter c = registry.find(counter).tag("target", name).counter();
            if (c != null) {
                registry.remove(c);
            }
        }
    }

    void delivered(String target, int statements) {
        counter("cairn_forward_delivered", target, "Statements delivered to the target").increment(statements);
    }

    void deadLettered(String target, int statements) {
        counter("cairn_forward_dead_lettered", target, "Statements the target refused, parked as dead letters")
                .increment(statements);
    }

    void skipped(String target, int statements) {
        counter("cairn_forward_skipped", target, "Statements of xAPI 2.0 a 1.0.3 target cannot take (never converted)")
                .increment(statements);
    }

    void retried(String target) {
        counter("cairn_forward_retries", target, "POSTs to the target that failed and were retried").increment();
    }

    private Counter counter(String name, String target, String description) {
        return Counter.builder(name).tag("target", target).description(description).register(registry);
    }
}
