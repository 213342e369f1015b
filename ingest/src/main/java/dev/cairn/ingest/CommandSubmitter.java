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

    public CommandSubmitter(IngestRing ring, WatermarkTracker tracker, AckMode defaultAck) {
        this.ring = ring;
        this.tracker = tracker;
        this.defaultAck = defaultAck;
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
                    if (error != null) {
                        Responses.error(exchange, 500, "server.error", "server",
                                "the write could not be completed: " + error.getMessage());
                    } else if (o instanceof WriteOutcome.Refused r) {
                        Responses.error(exchange, r.status(), r.code(), r.where(), r.message());
                    } else {
                        onAccepted.accept((WriteOutcome.Accepted) o);
                    }
                }));
    }
}
