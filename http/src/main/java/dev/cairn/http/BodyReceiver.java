package dev.cairn.http;

import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayOutputStream;
import java.util.function.Consumer;

/**
 * Receives a whole request body without blocking an I/O thread, within a size limit: past it the request gets
 * 413, whether the client declared the length (checked before reading) or sent the body chunked (counted as it
 * arrives, so a body is never buffered past the limit). A chunked body past the limit is read to its end and
 * dropped before the 413 goes out: a client that sends its whole body before reading the answer (as the JDK's
 * HttpClient does) would otherwise see its connection reset instead of the 413.
 *
 * <p>The server must set Undertow's {@code MAX_ENTITY_SIZE} to {@link #undertowCap(long)}: Undertow's default
 * (2 MiB) would cut bodies under the limit, and changing it per exchange once a chunked body is being read
 * corrupts Undertow's chunk parsing. Past that cap Undertow drops the connection without an answer.
 */
public final class BodyReceiver {
    private BodyReceiver() {
    }

    /** Undertow's cap for a limit of {@code maxBodyBytes}: high enough that the count here answers 413 first. */
    public static long undertowCap(long maxBodyBytes) {
        return maxBodyBytes > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * maxBodyBytes;
    }

    /** Runs {@code then} on the thread that completes the read (an I/O thread) with the whole body. */
    public static void receive(HttpServerExchange exchange, long maxBodyBytes, Consumer<byte[]> then) {
        receive(exchange, maxBodyBytes, BodyBudget.NONE, then);
    }

    /** As {@link #receive(HttpServerExchange, long, Consumer)}, every chunk counted against {@code budget} first. */
    public static void receive(HttpServerExchange exchange, long maxBodyBytes, BodyBudget budget, Consumer<byte[]> then) {
        long length = exchange.getRequestContentLength();
        if (length > undertowCap(maxBodyBytes)) {
            tooLarge(exchange, "the request body is " + length + " bytes; the limit is " + maxBodyBytes);
            return;
        }
        // A declared length over the limit (but within the cap) is read and dropped like a chunked one, so the
        // client reads the 413 instead of a connection reset while it is still sending.
        ByteArrayOutputStream body = new ByteArrayOutputStream(length > 0 && length <= maxBodyBytes ? (int) length : 1024);
        boolean[] refused = {false};
        boolean[] overBudget = {false};
        exchange.getRequestReceiver().receivePartialBytes((ex, chunk, last) -> {
            if (overBudget[0]) {
                return;
            }
            if (!refused[0] && !budget.take(ex, chunk.length)) { // the budget has answered
                overBudget[0] = true;
                body.reset();
                return;
            }
            if (!refused[0] && body.size() + (long) chunk.length > maxBodyBytes) {
                refused[0] = true;
                body.reset();
            }
            if (!refused[0]) {
                body.writeBytes(chunk);
            }
            if (last) {
                if (refused[0]) {
                    Responses.error(ex, 413, "request.too_large", "body", "the request body is longer than the limit of "
                            + maxBodyBytes + " bytes");
                } else {
                    then.accept(body.toByteArray());
                }
            }
        }, (ex, error) -> {
            if (!overBudget[0]) {
                tooLarge(ex, refused[0]
                        ? "the request body is longer than the limit of " + maxBodyBytes + " bytes"
                        : "the request body could not be read: " + error.getMessage());
            }
        });
    }

    private static void tooLarge(HttpServerExchange exchange, String message) {
        exchange.setPersistent(false); // the body is not read, so the connection cannot carry another request
        Responses.error(exchange, 413, "request.too_large", "body", message);
    }
}
