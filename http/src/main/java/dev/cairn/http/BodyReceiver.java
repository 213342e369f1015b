package dev.cairn.http;

import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayOutputStream;
import java.util.function.Consumer;

/**
 * Receives a whole request body without blocking an I/O thread, within a size limit: past it the request gets
 * 413 and its connection is closed, whether the client declared the length (checked before reading) or sent the
 * body chunked (counted as it arrives, so an endless body is never buffered past the limit).
 */
public final class BodyReceiver {
    private BodyReceiver() {
    }

    /** Runs {@code then} on the thread that completes the read (an I/O thread) with the whole body. */
    public static void receive(HttpServerExchange exchange, long maxBodyBytes, Consumer<byte[]> then) {
        long length = exchange.getRequestContentLength();
        if (length > maxBodyBytes) {
            tooLarge(exchange, "the request body is " + length + " bytes; the limit is " + maxBodyBytes);
            return;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(length > 0 ? (int) length : 1024);
        boolean[] refused = {false};
        exchange.getRequestReceiver().receivePartialBytes((ex, chunk, last) -> {
            if (refused[0]) {
                return;
            }
            if (body.size() + (long) chunk.length > maxBodyBytes) {
                refused[0] = true;
                tooLarge(ex, "the request body is longer than the limit of " + maxBodyBytes + " bytes");
                return;
            }
            body.writeBytes(chunk);
            if (last) {
                then.accept(body.toByteArray());
            }
        }, (ex, error) -> tooLarge(ex, "the request body could not be read: " + error.getMessage()));
    }

    private static void tooLarge(HttpServerExchange exchange, String message) {
        exchange.setPersistent(false); // the rest of the body is not read
        Responses.error(exchange, 413, "request.too_large", "body", message);
    }
}
