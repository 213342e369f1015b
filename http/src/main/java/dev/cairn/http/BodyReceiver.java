package dev.cairn.http;

import io.undertow.io.Receiver;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Receives a whole request body without blocking an I/O thread, within a size limit and the request's
 * {@link BodyDeadlineHandler deadline}. The buffer grows with the bytes that arrive, never from the length a
 * client declares, so a connection holds only what it sent.
 *
 * <p>Past the limit the request gets 413, whether the client declared the length or sent the body chunked. Up to
 * {@link #DISCARD_BYTES} past the limit are read and dropped first, and a body that ends within them keeps its
 * connection: a client that sends its whole body before it reads the answer (as the JDK's HttpClient does) then
 * reads the 413 instead of a connection reset. A body longer than that is not read further: the 413 goes out at
 * once and the connection is closed after it. A body that cannot be read (a malformed chunk), whether or not it
 * had passed the limit, gets 400, one that does not arrive in time 408, both closing the connection.
 *
 * <p>The server must set Undertow's {@code MAX_ENTITY_SIZE} to {@link #undertowCap(long)}: Undertow's default
 * (2 MiB) would cut bodies under the limit, and changing it per exchange once a chunked body is being read
 * corrupts Undertow's chunk parsing. Past that cap Undertow drops the connection without an answer, so the cap
 * leaves room for a read buffer or two beyond what is read here.
 */
public final class BodyReceiver {
    /** How much of a body past the limit is read and dropped before the 413 closes the connection. */
    public static final long DISCARD_BYTES = 1 << 20;

    private BodyReceiver() {
    }

    /** Undertow's cap for a limit of {@code maxBodyBytes}: high enough that the count here answers 413 first. */
    public static long undertowCap(long maxBodyBytes) {
        return maxBodyBytes + 2 * DISCARD_BYTES;
    }

    /** Runs {@code then} on the thread that completes the read (an I/O thread) with the whole body. */
    public static void receive(HttpServerExchange exchange, long maxBodyBytes, Consumer<byte[]> then) {
        receive(exchange, maxBodyBytes, BodyBudget.NONE, then);
    }

    /** As {@link #receive(HttpServerExchange, long, Consumer)}, every chunk held counted against {@code budget}. */
    public static void receive(HttpServerExchange exchange, long maxBodyBytes, BodyBudget budget,
                               Consumer<byte[]> then) {
        long length = exchange.getRequestContentLength();
        if (length > maxBodyBytes + DISCARD_BYTES) {
            refuse(exchange, 413, "request.too_large", tooLarge(maxBodyBytes));
            return;
        }
        Reading reading = new Reading(maxBodyBytes, budget, then);
        BodyDeadlineHandler.whileReading(exchange, reading::timedOut);
        exchange.getRequestReceiver().receivePartialBytes(reading, reading);
    }

    private static String tooLarge(long maxBodyBytes) {
        return "the request body is longer than the limit of " + maxBodyBytes + " bytes";
    }

    /** Answers and closes the connection after the answer: the rest of the body is not read. */
    private static void refuse(HttpServerExchange exchange, int status, String code, String message) {
        exchange.setPersistent(false);
        Responses.error(exchange, status, code, "body", message);
    }

    /**
     * One body being read. The receiver's callbacks and the deadline may run on different threads (a receive
     * started on a worker reads there first), so whichever ends the reading first answers, once.
     */
    private static final class Reading implements Receiver.PartialBytesCallback, Receiver.ErrorCallback {
        private final AtomicBoolean ended = new AtomicBoolean();
        private final long maxBodyBytes;
        private final BodyBudget budget;
        private final Consumer<byte[]> then;
        /**
         * The chunks so far, once there is more than one; null before the second arrives (a body that comes whole in
         * one chunk, as a single statement's does, is handed on as that chunk, uncopied) and once over the limit.
         */
        private ByteArrayOutputStream body;
        /** The first chunk, until a second arrives; null once over the limit. */
        private byte[] first;
        private long received;

        Reading(long maxBodyBytes, BodyBudget budget, Consumer<byte[]> then) {
            this.maxBodyBytes = maxBodyBytes;
            this.budget = budget;
            this.then = then;
        }

        @Override
        public void handle(HttpServerExchange ex, byte[] chunk, boolean last) {
            if (ended.get()) {
                return;
            }
            if (received + chunk.length <= maxBodyBytes && !budget.take(ex, chunk.length)) {
                if (ended.compareAndSet(false, true)) {
                    ex.getRequestReceiver().pause();
                    body = null;
                    first = null;
                    budget.refuse(ex);
                }
                return;
            }
            received += chunk.length;
            if (received > maxBodyBytes) {
                body = null; // over the limit: drop what was held and count the rest
                first = null;
                if (received > maxBodyBytes + DISCARD_BYTES && ended.compareAndSet(false, true)) {
                    ex.getRequestReceiver().pause();
                    refuse(ex, 413, "request.too_large", tooLarge(maxBodyBytes));
                    return;
                }
            } else if (chunk.length > 0) { // the receiver's empty chunks (one shared array) add nothing
                keep(chunk);
            }
            if (last && ended.compareAndSet(false, true)) {
                if (received > maxBodyBytes) { // read to its end, so the connection can carry the next request
                    Responses.error(ex, 413, "request.too_large", "body", tooLarge(maxBodyBytes));
                } else {
                    then.accept(body != null ? body.toByteArray() : first != null ? first : new byte[0]);
                }
            }
        }

        /** Holds a chunk: the first as it is, since the receiver hands each over as a new array nothing else keeps. */
        private void keep(byte[] chunk) {
            if (first == null && body == null) {
                first = chunk;
                return;
            }
            if (body == null) {
                body = new ByteArrayOutputStream(2 * first.length + chunk.length);
                body.writeBytes(first);
                first = null;
            }
            body.writeBytes(chunk);
        }

        @Override
        public void error(HttpServerExchange ex, IOException e) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            if (e instanceof RequestTooBigException) { // Undertow's own cap, which undertowCap keeps out of reach
                refuse(ex, 413, "request.too_large", tooLarge(maxBodyBytes));
            } else { // even past the limit: the body did not arrive as HTTP frames one, so it was not "too large"
                refuse(ex, 400, "body.unreadable", "the request body could not be read: its chunked encoding is "
                        + "malformed, or the connection ended before the body did");
            }
        }

        /** Runs on the exchange's I/O thread when the body deadline passes. */
        void timedOut(HttpServerExchange ex, long timeoutMillis) {
            if (ended.compareAndSet(false, true)) {
                ex.getRequestReceiver().pause();
                refuse(ex, 408, "request.timeout", "the request body did not arrive whole within " + timeoutMillis
                        + " ms");
            }
        }
    }
}
