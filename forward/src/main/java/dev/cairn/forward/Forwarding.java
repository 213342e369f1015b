package dev.cairn.forward;

import dev.cairn.log.EventLog;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardTarget;
import dev.cairn.store.ForwardingLock;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Forwarder} per target stored in the database, in {@code cairn serve} or {@code cairn forward}. The
 * targets are read again every {@value #RECHECK_MILLIS} ms, so what {@code cairn targets} or the admin API changes
 * (from any process) takes effect here within that: a new target starts, a paused one pauses, a removed one stops.
 */
public final class Forwarding implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Forwarding.class);
    static final long RECHECK_MILLIS = 1_000;

    private final EventLog log;
    private final ForwardStore store;
    /** Held while this process forwards; another process holding it makes this one stand by. */
    private final ForwardingLock lock;
    private final XapiVersion version;
    private final Delivery delivery;
    private final ForwardMetrics metrics;
    private final ScheduledExecutorService watcher;
    /** Read by health on an I/O thread without the reconciling lock, which waits for the database. */
    private final ErasureWatch erasures;
    private final Map<String, Forwarder> running = new java.util.concurrent.ConcurrentHashMap<>();
    /** Targets found invalid, with what was wrong, so it is logged once. */
    private final Map<String, String> invalid = new HashMap<>();

    /** Whether this process stood by at the last recheck (logged when it changes). */
    private boolean standingBy;

    /**
     * @param lock     the database's forwarding lock, which this closes when it closes
     * @param erasures the erasures beside it, after which a batch read before is read again
     */
    public Forwarding(EventLog log, ForwardStore store, ForwardingLock lock, XapiVersion version,
                      MeterRegistry registry, ErasureWatch erasures) {
        this.log = log;
        this.erasures = erasures;
        this.store = store;
        this.lock = lock;
        this.version = version;
        this.delivery = new Delivery();
        this.metrics = new ForwardMetrics(registry);
        this.watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-forward-watch");
            t.setDaemon(true);
            return t;
        });
    }

    public void start() {
        watcher.scheduleWithFixedDelay(this::reconcile, 0, RECHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Each running target's lag: log entries behind, and seconds its oldest undelivered statement has waited. */
    public Map<String, Lag> lag() {
        Map<String, Lag> out = new LinkedHashMap<>();
        running.forEach((name, f) -> out.put(name, new Lag(f.lagEntries(), f.lagMillis() / 1000.0,
                f.target().stored().paused(), f.failingSinceMillis(), f.lastFailureStatus())));
        return out;
    }

    /**
     * How far a target is behind the log, and whether forwarding to it fails: since when ({@code failingSinceMillis},
     * 0 while it works) and with which HTTP status last ({@code lastStatus}, 0 for no answer).
     */
    public record Lag(long entries, double seconds, boolean paused, long failingSinceMillis, int lastStatus) {
    }

    private synchronized void reconcile() {
        List<ForwardTarget> targets;
        try {
            if (!holdLock()) {
                return;
            }
            targets = store.list();
        } catch (RuntimeException e) {
            LOG.debug("cannot read the forwarding targets now: {}", e.getMessage());
            return;
        }
        Set<String> seen = new HashSet<>();
        for (ForwardTarget stored : targets) {
            seen.add(stored.name());
            Target t;
            try {
                t = Target.check(stored, version);
                invalid.remove(stored.name());
            } catch (XapiException e) {
                if (!e.getMessage().equals(invalid.put(stored.name(), e.getMessage()))) {
                    LOG.error("forwarding target {} is not forwarded to: {}: {}", stored.name(), e.where(),
                            e.getMessage());
                }
                continue;
            }
            Forwarder f = running.get(stored.name());
            if (f != null && !sameDefinition(f.target().stored(), stored)) {
                // changed (removed and added again within a recheck, or a configuration file's new definition):
                // the old forwarder must not send one more batch to the old URL with the old credential
                stop(stored.name());
                LOG.info("forwarding to {} restarts with its new definition", stored.name());
                f = null;
            }
            if (f == null) {
                f = new Forwarder(log, store, delivery, t, metrics, erasures);
                running.put(stored.name(), f);
                metrics.register(f);
                f.start();
                // the host only: a webhook's path or query often holds its token
                LOG.info("forwarding to {} ({} at {}){}", t.name(), stored.kind(), t.url().getHost(),
                        stored.paused() ? ", paused" : "");
            } else if (f.target().stored().paused() != stored.paused()) {
                f.update(t);
                LOG.info("forwarding to {} {}", t.name(), stored.paused() ? "paused" : "resumed");
            }
        }
        for (String name : Set.copyOf(running.keySet())) {
            if (!seen.contains(name)) {
                stop(name);
                LOG.info("forwarding to {} stopped: the target was removed", name);
            }
        }
        invalid.keySet().retainAll(seen);
    }

    /**
     * Whether this process may forward: it holds the lock, or took it now. One that lost it (its database session
     * ended) stops its forwarders before another process, which may take the lock now, sends their batches.
     */
    private boolean holdLock() {
        boolean held;
        try {
            held = lock.hold();
        } catch (RuntimeException e) {
            held = false;
            LOG.debug("cannot take the forwarding lock now: {}", e.getMessage());
        }
        if (!held) {
            for (String name : Set.copyOf(running.keySet())) {
                stop(name);
            }
            if (!standingBy) {
                LOG.info("forwarding stands by: another process forwards from this database (it takes over when that"
                        + " one stops)");
            }
        } else if (standingBy) {
            LOG.info("forwarding takes over: no other process forwards from this database now");
        }
        standingBy = !held;
        return held;
    }

    /** Whether two stored forms of a target define the same forwarding (cursor and pause aside). */
    private static boolean sameDefinition(ForwardTarget a, ForwardTarget b) {
        return a.kind().equals(b.kind()) && a.url().equals(b.url()) && java.util.Objects.equals(a.credential(),
                b.credential()) && java.util.Objects.equals(a.secret(), b.secret()) && a.filter().equals(b.filter())
                && a.batchSize() == b.batchSize() && a.maxDelayMillis() == b.maxDelayMillis()
                && java.util.Objects.equals(a.xapiVersion(), b.xapiVersion());
    }

    private void stop(String name) {
        Forwarder f = running.remove(name);
        if (f != null) {
            f.stop();
            metrics.unregister(name);
        }
    }

    @Override
    public void close() {
        watcher.shutdownNow();
        try {
            watcher.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            for (String name : Set.copyOf(running.keySet())) {
                stop(name);
            }
            lock.close(); // after the forwarders stopped: another process may send their batches from here on
        }
    }
}
