package dev.cairn.ingest;

import dev.cairn.http.BodyReceiver;
import dev.cairn.http.Exchanges;
import dev.cairn.http.Responses;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.XapiException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What every write handler does with a command: publish it to the ring (503 when full), wait for the decision,
 * then for durability or visibility as asked, and answer on the exchange's I/O thread — refusals as the status
 * they carry, acceptances through the handler's own callback.
 */
public final class CommandSubmitter {
    /** Per-request override of the acknowledgement mode: {@code durable} or {@code visible}. */
    public static final String ACK_HEADER = "X-Cairn-Ack";

    private final IngestRing ring;
    private final WatermarkTracker tracker;
    private final AckMode defaultAck;
    private final long maxEntryBytes;

    /** @param maxEntryBytes the most one write may take in the log ({@link dev.cairn.log.EventLog#maxEntryBytes()}) */
    public CommandSubmitter(IngestRing ring, WatermarkTracker tracker, AckMode defaultAck, long maxEntryBytes) {
        this.ring = ring;
        this.tracker = tracker;
        this.defaultAck = defaultAck;
        this.maxEntryBytes = maxEntryBytes;
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
     * {@code then} on a worker thread. The dispatch keeps the exchange open until a response is sent.
     */
    static void receiveBody(HttpServerExchange exchange, long maxBodyBytes, Consumer<byte[]> then) {
        byte[] read = exchange.getAttachment(Exchanges.BODY);
        if (read != null) { // the content of an Alternate Request Syntax form, read before authentication
            exchange.dispatch(() -> then.accept(read));
            return;
        }
        BodyReceiver.receive(exchange, maxBodyBytes, body -> exchange.dispatch(() -> then.accept(body)));
    }

    void submit(HttpServerExchange exchange, WriteCommand command, AckMode ack, Consumer<WriteOutcome.Accepted> onAccepted) {
        if (!ring.tryPublish(command)) {
            exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
            Responses.error(exchange, 503, "ingest.busy", "server", "the ingest queue is full; retry shortly");
            return;
        }
        command.outcome()
                .thenCompose(o -> o instanceof WriteOutcome.Accepted a && a.logIndex() >= 0 && ack == AckMode.VISIBLE
                        ? tracker.awaitVisible(a.logIndex()).thenApply(w -> o)
                        : CompletableFuture.completedFuture(o))
                .whenComplete((o, error) -> exchange.getIoThread().execute(() -> {
                    if (error != null) { // the sequencer logged the cause; its text is not the client's business
                        Responses.error(exchange, 500, "server.error", "server",
                                "the write could not be completed; it may or may not have been stored");
                    } else if (o instanceof WriteOutcome.Refused r) {
                        Responses.error(exchange, r.status(), r.code(), r.where(), r.message());
                    } else {
                        onAccepted.accept((WriteOutcome.Accepted) o);
                    }
                }));
    }
}
