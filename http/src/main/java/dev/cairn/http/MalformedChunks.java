package dev.cairn.http;

import io.undertow.conduits.ChunkedStreamSourceConduit;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import java.io.Closeable;
import java.lang.reflect.Field;
import org.xnio.conduits.StreamSourceConduit;

/**
 * Lets a malformed chunked body be answered. Undertow's chunk decoder, on a chunk size or trailer it cannot read,
 * closes the whole connection before it reports the error, so no one can answer 400. Its decoder takes what it
 * closes as a constructor argument, but Undertow passes the connection and offers no other way in; so the field is
 * pointed, once per chunked request, at a closeable that only ends keep-alive. The error then reaches the body's
 * reader ({@link BodyReceiver}), which answers 400 and closes the connection after the answer.
 */
final class MalformedChunks {
    private static final Field CLOSEABLE = closeableField();

    private MalformedChunks() {
    }

    private static Field closeableField() {
        try {
            Field f = ChunkedStreamSourceConduit.class.getDeclaredField("closeable");
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            throw new IllegalStateException("this Undertow's ChunkedStreamSourceConduit has no field 'closeable' "
                    + "(Cairn is built against Undertow 2.3): " + e, e);
        }
    }

    /** Makes the decoder of {@code exchange}'s chunked body leave the connection open when the body is malformed. */
    static void answerable(HttpServerExchange exchange) {
        if (!(exchange.getConnection() instanceof HttpServerConnection connection)) {
            return;
        }
        StreamSourceConduit conduit = connection.getChannel().getSourceChannel().getConduit();
        if (!(conduit instanceof ChunkedStreamSourceConduit chunked)) {
            return;
        }
        Closeable endKeepAlive = () -> exchange.setPersistent(false);
        try {
            CLOSEABLE.set(chunked, endKeepAlive);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach Undertow's chunk decoder", e);
        }
    }
}
