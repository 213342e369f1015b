package dev.cairn.http;

import io.undertow.conduits.ChunkedStreamSourceConduit;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.ConduitStreamSourceChannel;
import org.xnio.conduits.StreamSourceConduit;

/**
 * Lets a malformed chunked body be answered. Undertow's chunk decoder, on a chunk size or trailer it cannot read,
 * closes the whole connection before it reports the error, so no one can answer 400. Its decoder takes what it
 * closes as a constructor argument, but Undertow passes the connection and offers no other way in; so the field is
 * pointed, once per chunked request, at a closeable that only ends keep-alive. Its trailer parser also throws
 * IllegalArgumentException on some malformed trailers (a last chunk "0x10" followed by bytes), which is turned into
 * the IOException of any other malformed body. The error then reaches the body's reader ({@link BodyReceiver}),
 * which answers 400 and closes the connection after the answer.
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
        ConduitStreamSourceChannel source = connection.getChannel().getSourceChannel();
        if (!(source.getConduit() instanceof ChunkedStreamSourceConduit chunked)) {
            return;
        }
        Closeable endKeepAlive = () -> exchange.setPersistent(false);
        try {
            CLOSEABLE.set(chunked, endKeepAlive);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach Undertow's chunk decoder", e);
        }
        source.setConduit(new Unreadable(chunked));
    }

    /** Reports a decoder's unchecked failure as the IOException of an unreadable body. */
    private static final class Unreadable extends AbstractStreamSourceConduit<StreamSourceConduit> {
        Unreadable(StreamSourceConduit next) {
            super(next);
        }

        private static IOException unreadable(RuntimeException e) {
            return new IOException("the chunked body is malformed: " + e.getMessage(), e);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            try {
                return next.read(dst);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw unreadable(e);
            }
        }

        @Override
        public long read(ByteBuffer[] dsts, int offs, int len) throws IOException {
            try {
                return next.read(dsts, offs, len);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw unreadable(e);
            }
        }

        @Override
        public long transferTo(long position, long count, FileChannel target) throws IOException {
            try {
                return next.transferTo(position, count, target);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw unreadable(e);
            }
        }

        @Override
        public long transferTo(long count, ByteBuffer throughBuffer, StreamSinkChannel target) throws IOException {
            try {
                return next.transferTo(count, throughBuffer, target);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw unreadable(e);
            }
        }
    }
}
