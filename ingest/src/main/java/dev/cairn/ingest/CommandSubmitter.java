package dev.cairn.ingest;

import dev.cairn.http.BodyReceiver;
import dev.cairn.http.ErrorPolicy;
import dev.cairn.http.Exchanges;
import dev.cairn.http.Responses;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.XapiException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.SameThreadExecutor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What every write handler does with a command: publish it to the ring (503 when full), wait for the decision,
 * then for durability or visibility as asked, and answer on the exchange's I/O thread — refusals as the status
 * they carry, acceptances through the handler's own callback, a sequencer that failed through the
 * {@link ErrorPolicy}.
 *
 * <p>A wait for visibility is bounded: past {@code visibleTimeoutMillis} (the projector is stuck or far behind) the
 * write is answered with its usual success, since it is durable in the log and will become visible, and with the
 * response header {@code X-Cairn-Ack: durable}, which says that it is not visible yet. A 5xx would tell the client
 * that nothing was stored, and a client that then retries a POST without ids would store its statements twice.
 */
public final class CommandSubmitter implements AutoCloseable {
    /**
     * Per-request override of the acknowledgement mode: {@code durable} or {@code visible}. In a response: the write
     * was acknowledged as durable although the request asked for visible, because the wait timed out.
     */
    public static final String ACK_HEADER = "X-Cairn-Ack";
    private static final HttpString ACK_HEADER_NAME = new HttpString(ACK_HEADER);

    /**
     * The largest body handled on its I/O thread: a 1 KB statement parses in ~10 µs, well under the cost of a
     * hand-off to a worker, while 16 KiB still keeps an I/O thread's other connections waiting under ~0.2 ms.
     */
    static final int INLINE_BODY_BYTES = 16 << 10;

    private final IngestRing ring;
    private final WatermarkTracker tracker;
    private final AckMode defaultAck;
    private final long maxEntryBytes;
    /** Ends the waits for visibility that have lasted the timeout. */
    private final ScheduledExecutorService expiry;

    /** @param maxEntryBytes the most one write may take in the log ({@link dev.cairn.log.EventLog#maxEntryBytes()}) */
    public CommandSubmitter(IngestRing ring, WatermarkTracker tracker, AckMode defaultAck, long maxEntryBytes,
                            long visibleTimeoutMillis) {
        this.ring = ring;
        this.tracker = tracker;
        this.defaultAck = defaultAck;
        this.maxEntryBytes = maxEntryBytes;
        this.expiry = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-visible-timeout");
            t.setDaemon(true);
            return t;
        });
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(visibleTimeoutMillis);
        long period = Math.max(10, Math.min(250, visibleTimeoutMillis / 10));
        expiry.scheduleWithFixedDelay(() -> tracker.expireWaits(timeoutNanos), period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Whether a write that takes {@code entryBytes} in the log fits in one entry; if not, answers 413 with
     * {@code advice}, so the write never reaches the sequencer.
     */
    boolean fitsLog(HttpServerExchange exchange, long entryBytes, String advice) {
        if (entryBytes <= maxEntryBytes) {
            return true;
        }
        Responses.error(exchange, 413, "request.too_large", "body", "the request would take " + entryBytes
                + " bytes in the log, more than the " + maxEntryBytes + " one write may take; " + advice);
        return false;
    }
    /** The acknowledgement mode of a request: the X-Cairn-Ack header, or the server's default. */
    AckMode ackMode(HttpServerExchange exchange) {
        String value = exchange.getRequestHeaders().getFirst(ACK_HEADER);
        if (value == null) {
            return defaultAck;
        }
        return AckMode.parse(value).orElseThrow(() -> new XapiException("header " + ACK_HEADER, "header.invalid",
                ACK_HEADER + " must be 'durable' or 'visible', not '" + value + "'"));
    }

    /**
     * Receives the whole body without blocking an I/O thread (413 past {@code maxBodyBytes}), then runs
     * {@code then}; what it throws goes to the {@link ErrorPolicy}. With {@code inline}, a body of at most
     * {@link #INLINE_BODY_BYTES} (one statement, a State document) is handled on the I/O thread that read it: parsing
     * it costs less than handing it to a worker and waking that worker. Anything larger, or whose handling may cost
     * more than its size says (a multipart body's signatures), goes to a worker, so that the I/O thread goes on serving
     * its other connections. Either dispatch keeps the exchange open until a response is sent.
     */
    static void receiveBody(HttpServerExchange exchange, long maxBodyBytes, boolean inline, Consumer<byte[]> then) {
        byte[] read = exchange.getAttachment(Exchanges.BODY);
        if (read != null) { // the content of an Alternate Request Syntax form, read before authentication
            exchange.dispatch(() -> handle(exchange, then, read));
            return;
        }
        BodyReceiver.receive(exchange, maxBodyBytes, body -> {
            if (inline && body.length <= INLINE_BODY_BYTES && exchange.isInIoThread()) {
                exchange.dispatch(SameThreadExecutor.INSTANCE, () -> handle(exchange, then, body));
            } else {
                exchange.dispatch(() -> handle(exchange, then, body));
            }
        });
    }

    private static void handle(HttpServerExchange exchange, Consumer<byte[]> then, byte[] body) {
        try {
            then.accept(body);
        } catch (RuntimeException | Error e) {
            ErrorPolicy.fail(exchange, e);
        }
    }

    void submit(HttpServerExchange exchange, WriteCommand command, AckMode ack, Consumer<WriteOutcome.Accepted> onAccepted) {
        if (!ring.tryPublish(command)) {
            exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
            Responses.error(exchange, 503, "ingest.busy", "server", "the ingest queue is full; retry shortly");
            return;
        }
        command.outcome().whenComplete((o, error) -> {
            if (error == null && ack == AckMode.VISIBLE && o instanceof WriteOutcome.Accepted a && a.logIndex() >= 0) {
                tracker.awaitVisible(a.logIndex())
                        .whenComplete((w, notVisible) -> answer(exchange, o, null, notVisible != null, onAccepted));
            } else {
                answer(exchange, o, error, false, onAccepted);
            }
        });
    }

    private static void answer(HttpServerExchange exchange, WriteOutcome o, Throwable error, boolean notVisible,
                               Consumer<WriteOutcome.Accepted> onAccepted) {
        exchange.getIoThread().execute(() -> {
            if (error != null) {
                ErrorPolicy.fail(exchange, error);
            } else if (o instanceof WriteOutcome.Refused r) {
                if (r.status() == 503) {
                    exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "5");
                }
                Responses.error(exchange, r.status(), r.code(), r.where(), r.message());
            } else {
                if (notVisible) {
                    exchange.getResponseHeaders().put(ACK_HEADER_NAME, "durable");
                }
                onAccepted.accept((WriteOutcome.Accepted) o);
            }
        });
    }

    @Override
    public void close() {
        expiry.shutdownNow();
    }
}
