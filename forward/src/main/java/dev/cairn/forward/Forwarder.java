package dev.cairn.forward;

import dev.cairn.log.AttachmentContent;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.ForwardStore;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards the log to one target, on a thread of its own: reads the synced entries after the target's cursor, gathers
 * the statements its filter takes into a batch (up to its size, or its largest delay after the first), POSTs it and
 * moves the cursor past it, in log order. At least once: the cursor moves only after the batch was delivered or
 * parked, so a forwarder killed in between sends it again, with the same ids.
 *
 * <p>A target that does not answer, answers 5xx or 429 is retried with exponential backoff and jitter (from
 * {@value #MIN_BACKOFF_MILLIS} ms to {@value #MAX_BACKOFF_MILLIS} ms, or after its Retry-After) and holds up only
 * its own forwarder. Any failure of the database or the log restarts the forwarder from its stored cursor.
 */
final class Forwarder {
    private static final Logger LOG = LoggerFactory.getLogger(Forwarder.class);
    static final long MIN_BACKOFF_MILLIS = 500;
    static final long MAX_BACKOFF_MILLIS = 60_000;
    /** The longest Retry-After honoured as given. */
    static final long MAX_RETRY_AFTER_MILLIS = 600_000;
    /**
     * The most bytes of statements one POST carries (one statement always goes, however large): a batch of many large
     * statements is sent in pieces, so a forwarder holds a few MiB, not batch × the largest body.
     */
    static final long MAX_BATCH_BYTES = 4L << 20;
    /** How long a forwarder waits for an erasure before it says so in the log. */
    private static final long ERASURE_WAIT_TOLD_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** How often a forwarder at the log's end looks for new entries. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final EventLog log;
    private final ForwardStore store;
    private final Delivery delivery;
    private final ForwardMetrics metrics;
    private final ErasureWatch erasures;
    /** Whether the log says that this target passes statements over for their version (once per forwarder). */
    private boolean warnedOfSkips;
    private final Thread thread;
    private volatile Target target;
    private volatile boolean running = true;
    /** The target's cursor as this forwarder last stored or read it; -2 before it started. */
    private volatile long position = -2;
    /** Failures in a row, each restarting from the stored cursor; 0 again once the cursor moves. */
    private int failures;
    /** When the current run of failed attempts began (0 while forwarding works), and the last one's HTTP status. */
    private volatile long failingSinceMillis;
    private volatile int lastFailureStatus;
    /** The stored time of the oldest statement read and not yet delivered, 0 when none. */
    private volatile long pendingSinceMillis;

    Forwarder(EventLog log, ForwardStore store, Delivery delivery, Target target, ForwardMetrics metrics,
              ErasureWatch erasures) {
        this.log = log;
        this.store = store;
        this.delivery = delivery;
        this.target = target;
        this.metrics = metrics;
        this.erasures = erasures;
        this.thread = new Thread(this::run, "cairn-forward-" + target.name());
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    Target target() {
        return target;
    }

    /** Takes a target's new state (paused or resumed). */
    void update(Target t) {
        target = t;
        LockSupport.unpark(thread);
    }

    /** Entries of the log after the cursor: what the target is behind by. */
    long lagEntries() {
        long p = position;
        return p < -1 ? log.entriesAfter(EventLog.START) : log.entriesAfter(p);
    }

    /** How long the oldest statement not yet delivered has waited, in milliseconds (0 when none is). */
    long lagMillis() {
        long since = pendingSinceMillis;
        return since == 0 ? 0 : Math.max(0, System.currentTimeMillis() - since);
    }

    /** When the current run of failures began, or 0 while forwarding works. */
    long failingSinceMillis() {
        return failingSinceMillis;
    }

    /** The HTTP status of the last failed attempt; 0 when the target did not answer or the failure was here. */
    int lastFailureStatus() {
        return lastFailureStatus;
    }

    /** Records a failed attempt: {@code status} 0 when there was no answer. */
    private void failing(int status) {
        if (failingSinceMillis == 0) {
            failingSinceMillis = System.currentTimeMillis();
        }
        lastFailureStatus = status;
    }

    /**
     * Stops the forwarder; a batch being delivered is sent again by the next forwarder of the target. One waiting for a
     * target's answer is interrupted after 2 s, so a target that is slow to answer does not hold up a shutdown.
     */
    void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(2_000);
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (running) {
            try {
                forwardFromCursor();
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                failing(0);
                if (failures++ == 0) {
                    LOG.error("forwarding to {} failed; going on from its stored cursor", target.name(), e);
                }
                sleep(backoff(failures));
            }
        }
    }

    /** Forwards from the stored cursor until stopped, or until a failure makes it start over from the cursor. */
    private void forwardFromCursor() {
        Long stored = store.find(target.name()).map(t -> t.logPosition()).orElse(null);
        if (stored == null) {
            long end = log.lastSyncedPosition();
            position = store.start(target.name(), end);
            LOG.info("forwarding to {} starts at the log's end, after position {}", target.name(),
                    Long.toHexString(position));
        } else {
            position = stored;
        }
        try (LogTailer tailer = log.syncedTailer(position)) {
            while (running) {
                if (target.stored().paused()) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                    continue;
                }
                Batch batch = gather(tailer);
                if (batch == null || !deliver(batch)) {
                    return; // stopped or paused part-way, or an erasure came: start over from the cursor
                }
            }
        }
    }

    /**
     * Statements the filter takes, from whole log entries, in log order, the last entry read, and how many erasures had
     * been done before the first was read.
     */
    private record Batch(List<Delivery.Forwarded> statements, long last, long erasuresBefore) {
    }

    /** Reads entries until a batch is full or has waited its delay; null when stopped or paused meanwhile. */
    private Batch gather(LogTailer tailer) {
        long erasuresBefore = erasuresDone();
        if (erasuresBefore < 0) {
            return null;
        }
        Target t = target;
        boolean everything = t.filter().filters().isEmpty();
        List<Delivery.Forwarded> statements = new ArrayList<>();
        // Contents go to LRS targets only, and count once per batch however many of its statements name them.
        boolean withContents = t.stored().kind().equals(Target.LRS);
        boolean olderTarget = t.passesOverByVersion(); // then each statement's version is read
        Set<String> counted = new HashSet<>();
        long last = position;
        long firstNanos = 0;
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(t.stored().maxDelayMillis());
        long bytes = 0;
        while (statements.size() < t.stored().batchSize() && bytes < MAX_BATCH_BYTES) {
            if (!running || target.stored().paused()) {
                return null;
            }
            if (!statements.isEmpty() && System.nanoTime() - firstNanos >= delayNanos) {
                break; // the largest delay holds while entries the filter passes over keep coming, too
            }
            LogEntry e = tailer.next();
            if (e == null) {
                if (!statements.isEmpty()) {
                    long waited = System.nanoTime() - firstNanos;
                    if (waited >= delayNanos) {
                        break;
                    }
                    LockSupport.parkNanos(Math.min(POLL_NANOS, delayNanos - waited));
                } else {
                    if (last != position) { // entries the filter passed over: no need to read them again
                        advance(last);
                    }
                    pendingSinceMillis = 0;
                    LockSupport.parkNanos(POLL_NANOS);
                }
                continue;
            }
            last = e.position();
            if (e.event() instanceof StatementsStored stored) {
                Map<String, AttachmentContent> carried = new HashMap<>();
                for (AttachmentContent a : stored.attachments()) {
                    carried.put(a.sha2(), a);
                }
                for (StoredStatement s : stored.statements()) {
                    if (s.isErased()) {
                        continue;
                    }
                    Statement parsed = everything && (!withContents || carried.isEmpty()) && !olderTarget ? null
                            : StatementParser.parseStored(s.json()).statement();
                    if (olderTarget && !t.takes(parsed.version())) {
                        if (!warnedOfSkips) {
                            warnedOfSkips = true;
                            LOG.warn("forwarding to {}: statement {} is of xAPI {} and the target speaks 1.0.3, so it is "
                                    + "passed over, as every 2.0 statement will be (xAPI forbids converting a statement to "
                                    + "a prior version; cairn_forward_skipped_total counts them)", t.name(), s.id(),
                                    parsed.version());
                        }
                        metrics.skipped(t.name(), 1);
                        continue;
                    }
                    if (everything || t.filter().matches(FilterKeys.of(parsed))) {
                        if (statements.isEmpty()) {
                            firstNanos = System.nanoTime();
                            pendingSinceMillis = s.storedMillis();
                        }
                        Delivery.Forwarded f = new Delivery.Forwarded(s.json(),
                                withContents ? contents(parsed, carried) : List.of());
                        statements.add(f);
                        bytes += f.bytesWith(counted);
                    }
                }
            }
        }
        return new Batch(statements, last, erasuresBefore);
    }

    /**
     * How many erasures are done, once none is under way (read before it looks, so that one that commits after is
     * counted by the next look); -1 when stopped meanwhile.
     */
    private long erasuresDone() {
        long waitingSince = System.nanoTime();
        boolean told = false;
        while (running) {
            long done = erasures.erasures();
            // Counted again after the look: an erasure that began and ended between the count and the look shows.
            if (!erasures.erasing() && erasures.erasures() == done) {
                return done;
            }
            if (!told && System.nanoTime() - waitingSince > ERASURE_WAIT_TOLD_NANOS) {
                told = true; // an erasure whose process died leaves its mark until 'cairn erase' finishes it
                LOG.warn("forwarding to {} waits for an erasure that has run for over a minute; if no Cairn process "
                        + "is erasing, stop them and run 'cairn erase' to finish the interrupted one", target.name());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        return -1;
    }

    /** The contents of {@code statement}'s attachments among those its log entry carries (sent with it). */
    private static List<AttachmentContent> contents(Statement statement, Map<String, AttachmentContent> carried) {
        if (carried.isEmpty()) {
            return List.of();
        }
        List<AttachmentContent> out = new ArrayList<>();
        for (Attachment a : statement.allAttachments()) {
            AttachmentContent c = carried.get(a.sha2().toLowerCase(Locale.ROOT));
            if (c != null && !out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Delivers a batch (in pieces of the batch size when an entry held more) and moves the cursor past it; false when
     * stopped, or when an erasure came after it was read (its entries are read again, as the erasure left them).
     */
    private boolean deliver(Batch batch) {
        Target t = target;
        List<Delivery.Forwarded> all = batch.statements();
        for (int from = 0; from < all.size(); ) {
            int to = from + 1; // one statement always goes, however large
            Set<String> counted = new HashSet<>(); // a content goes once per POST, whatever names it
            long bytes = all.get(from).bytesWith(counted);
            while (to < all.size() && to - from < t.stored().batchSize()) {
                Set<String> with = new HashSet<>(counted);
                long more = all.get(to).bytesWith(with);
                if (bytes + more > MAX_BATCH_BYTES) {
                    break;
                }
                bytes += more;
                counted = with;
                to++;
            }
            if (!deliverPiece(t, all.subList(from, to), batch)) {
                return false; // the next forwarder, or the next read, sends the batch again
            }
            from = to;
        }
        advance(batch.last());
        pendingSinceMillis = 0;
        return true;
    }

    private boolean deliverPiece(Target t, List<Delivery.Forwarded> piece, Batch batch) {
        long last = batch.last();
        Delivery.Payload body = Delivery.body(t, piece);
        for (int attempt = 1; ; attempt++) {
            while (running && target.stored().paused()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
            long done = erasuresDone();
            if (done < 0) {
                return false;
            }
            if (done != batch.erasuresBefore()) {
                LOG.info("forwarding to {}: an erasure came after a batch was read; reading it again", t.name());
                return false;
            }
            Delivery.Outcome o;
            try {
                o = delivery.post(t, body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            switch (o.kind()) {
                case DELIVERED -> {
                    failingSinceMillis = 0;
                    metrics.delivered(t.name(), piece.size());
                    if (attempt > 1) {
                        LOG.info("forwarding to {} works again after {} attempts", t.name(), attempt);
                    }
                    return true;
                }
                case REFUSED -> {
                    if (erasuresDone() != batch.erasuresBefore()) {
                        return false; // an erasure came while it was on its way: parked, it could keep erased data
                    }
                    failingSinceMillis = 0; // it answered: what it refused is parked, and forwarding goes on
                    store.deadLetter(t.name(), last, piece.size(), body.bytes(), body.contentType(), o.status(),
                            o.response());
                    metrics.deadLettered(t.name(), piece.size());
                    LOG.warn("forwarding target {} refused a batch of {} statements with {}: parked as a dead letter "
                            + "('cairn targets dead-letters {}'); forwarding goes on", t.name(), piece.size(),
                            o.status(), t.name());
                    return true;
                }
                case RETRY -> {
                    failing(o.status());
                    metrics.retried(t.name());
                    long wait = o.retryAfterMillis() > 0 ? Math.min(o.retryAfterMillis(), MAX_RETRY_AFTER_MILLIS)
                            : backoff(attempt);
                    if (attempt == 1) {
                        LOG.warn("forwarding to {} failed ({}{}); retrying with backoff", t.name(),
                                o.status() == 0 ? "" : o.status() + " ", o.status() == 0 ? o.response() : "answer");
                    }
                    sleep(wait);
                }
            }
        }
    }

    private void advance(long to) {
        if (!store.advance(target.name(), position, to)) {
            throw new IllegalStateException("the cursor of target " + target.name() + " is no longer at " + position
                    + " (another forwarder of it runs, or it was removed)");
        }
        position = to;
        failingSinceMillis = 0;
        if (failures > 0) {
            LOG.info("forwarding to {} works again after {} failures", target.name(), failures);
            failures = 0;
        }
    }

    /** Exponential backoff with jitter: a random wait between half and all of the attempt's step. */
    static long backoff(int attempt) {
        long step = Math.min(MAX_BACKOFF_MILLIS, MIN_BACKOFF_MILLIS << Math.min(attempt - 1, 20));
        return step / 2 + ThreadLocalRandom.current().nextLong(step / 2 + 1);
    }

    private void sleep(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        long left;
        while (running && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }
}
