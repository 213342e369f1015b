package dev.cairn.http;

import io.undertow.conduits.ChunkedStreamSourceConduit;
import io.undertow.connector.PooledByteBuffer;
import io.undertow.server.Connectors;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.server.protocol.http.HttpServerConnection;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.conduits.AbstractConduit;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.ConduitReadableByteChannel;
import org.xnio.conduits.ConduitStreamSourceChannel;
import org.xnio.conduits.Conduits;
import org.xnio.conduits.StreamSourceConduit;

/**
 * Decodes a chunked request body as RFC 9112 section 7.1 frames it, in place of Undertow's decoder, which does not
 * check the framing: it took any two bytes after a chunk's data for its CRLF and a line without hex digits for the
 * last chunk, so a body a strict parser (a proxy in front) reads one way Cairn read another (found by the fuzzer of
 * issue 19: "1", CRLF, then a whole JSON document, was stored as its first byte); it also closed the connection
 * before a malformed body could be answered, and threw unchecked exceptions on some trailers.
 *
 * <p>A chunk is its size in hex digits, optional extensions, CRLF, the data, CRLF; the last chunk's size is 0, then
 * trailer lines, then CRLF. Extensions and trailers are read and ignored (RFC 9112 7.1.1, 7.1.2), but may hold no
 * control character but HTAB. A byte out of place, or the connection ending mid-body, is an IOException, which the
 * body's reader ({@link BodyReceiver}) answers as 400 {@code body.unreadable}; the connection then closes, since the
 * rest of the request cannot be told from the next one. The bytes read past the body's end (a pipelined request) are
 * handed back to the connection, as Undertow's decoder does, and the request is then complete. As in Undertow's
 * decoder, a body past the exchange's {@code MAX_ENTITY_SIZE} is a {@link RequestTooBigException}.
 */
final class StrictChunkedSource extends AbstractStreamSourceConduit<StreamSourceConduit> {
    private enum State { SIZE_START, SIZE, EXTENSION, SIZE_LF, DATA, DATA_CR, DATA_LF, TRAILER_START, TRAILER, TRAILER_LF,
        END_LF, DONE }

    /** A size past this many hex digits is refused before it can overflow (no body is near 2^60 bytes). */
    private static final int MAX_SIZE_DIGITS = 15;
    /**
     * Bytes of chunk extensions and trailers a body may hold in all, which no data limit counts: without it, a
     * client could send one endless extension (or endless trailers) and keep a connection's reading going.
     */
    private static final int MAX_FIELD_BYTES = 8 * 1024;
    /** What Undertow's decoder reads from: the connection's bytes. */
    private static final Field NEXT = next();

    private final HttpServerExchange exchange;
    private final HttpServerConnection connection;
    private State state = State.SIZE_START;
    private long remaining;
    private int digits;
    private long total;
    private int fieldBytes;
    private boolean terminated;

    private StrictChunkedSource(StreamSourceConduit next, HttpServerExchange exchange, HttpServerConnection connection) {
        super(next);
        this.exchange = exchange;
        this.connection = connection;
    }

    private static Field next() {
        try {
            Field f = AbstractConduit.class.getDeclaredField("next");
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            throw new IllegalStateException("XNIO's AbstractConduit has no field 'next' (Cairn is built against "
                    + "XNIO 3.8): " + e, e);
        }
    }

    /** Puts this decoder in the place of Undertow's for {@code exchange}'s chunked body, before anything reads it. */
    static void install(HttpServerExchange exchange) {
        if (!(exchange.getConnection() instanceof HttpServerConnection connection)) {
            return;
        }
        ConduitStreamSourceChannel source = connection.getChannel().getSourceChannel();
        if (!(source.getConduit() instanceof ChunkedStreamSourceConduit undertows)) {
            return;
        }
        try {
            source.setConduit(new StrictChunkedSource((StreamSourceConduit) NEXT.get(undertows), exchange, connection));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach the connection under Undertow's chunk decoder", e);
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (state == State.DONE) {
            return end();
        }
        PooledByteBuffer pooled = connection.getByteBufferPool().allocate();
        boolean handedBack = false;
        try {
            ByteBuffer raw = pooled.getBuffer();
            int r = next.read(raw);
            if (r < 0) {
                throw malformed("the connection ended before the body's last chunk");
            }
            raw.flip();
            int produced = 0;
            while (raw.hasRemaining() && state != State.DONE) {
                if (state == State.DATA) {
                    if (!dst.hasRemaining()) {
                        break;
                    }
                    int n = (int) Math.min(remaining, Math.min(raw.remaining(), dst.remaining()));
                    int limit = raw.limit();
                    raw.limit(raw.position() + n);
                    dst.put(raw);
                    raw.limit(limit);
                    produced += n;
                    remaining -= n;
                    total += n;
                    long cap = exchange.getMaxEntitySize();
                    if (cap > 0 && total > cap) { // also bounds a body drained after an answer that did not read it
                        exchange.setPersistent(false);
                        throw new RequestTooBigException("the chunked body is longer than " + cap + " bytes");
                    }
                    if (remaining == 0) {
                        state = State.DATA_CR;
                    }
                } else {
                    frame(raw.get());
                }
            }
            if (raw.hasRemaining()) { // past what this call could take, or past the body: the connection's again
                connection.ungetRequestBytes(pooled);
                handedBack = true;
            }
            return state == State.DONE && produced == 0 ? end() : produced;
        } finally {
            if (!handedBack) {
                pooled.close();
            }
        }
    }

    /**
     * The body's end, told to the reader as -1 and to Undertow as the request's end (so the next request on the
     * connection may be read), both at once: ending the request while its reader still holds data it has not seen
     * end makes Undertow run the reader's last callback nested inside the one before (a 500, "cannot have both async
     * IO resumed and dispatch() called in the same cycle").
     */
    private int end() {
        if (!terminated) {
            terminated = true;
            Connectors.terminateRequest(exchange);
        }
        return -1;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offs, int len) throws IOException {
        for (int i = offs; i < offs + len; i++) {
            if (dsts[i].hasRemaining()) {
                return read(dsts[i]);
            }
        }
        return 0;
    }

    @Override
    public long transferTo(long position, long count, FileChannel target) throws IOException {
        return target.transferFrom(new ConduitReadableByteChannel(this), position, count);
    }

    @Override
    public long transferTo(long count, ByteBuffer throughBuffer, StreamSinkChannel target) throws IOException {
        return Conduits.transfer(this, count, throughBuffer, target);
    }

    @Override
    public void terminateReads() throws IOException {
        if (state != State.DONE) {
            exchange.setPersistent(false); // the rest of this body cannot be told from the next request
        }
        super.terminateReads();
    }

    /** One byte of the framing: a size line, the CRLF after a chunk's data, a trailer line, the final CRLF. */
    private void frame(byte b) throws IOException {
        switch (state) {
            case SIZE_START -> {
                remaining = 0;
                digits = 0;
                state = State.SIZE;
                size(b);
            }
            case SIZE -> {
                if (b == ';' || b == ' ' || b == '\t') {
                    state = State.EXTENSION;
                } else if (b == '\r') {
                    state = State.SIZE_LF;
                } else {
                    size(b);
                }
            }
            case EXTENSION -> {
                if (b == '\r') {
                    state = State.SIZE_LF;
                } else {
                    fieldByte(b, "a chunk extension");
                }
            }
            case SIZE_LF -> {
                expect(b, '\n', "after a chunk size");
                state = remaining == 0 ? State.TRAILER_START : State.DATA;
            }
            case DATA_CR -> {
                expect(b, '\r', "after a chunk's data");
                state = State.DATA_LF;
            }
            case DATA_LF -> {
                expect(b, '\n', "after a chunk's data");
                state = State.SIZE_START;
            }
            case TRAILER_START -> {
                if (b == '\r') {
                    state = State.END_LF;
                } else {
                    fieldByte(b, "a trailer");
                    state = State.TRAILER;
                }
            }
            case TRAILER -> {
                if (b == '\r') {
                    state = State.TRAILER_LF;
                } else {
                    fieldByte(b, "a trailer");
                }
            }
            case TRAILER_LF -> {
                expect(b, '\n', "after a trailer");
                state = State.TRAILER_START;
            }
            case END_LF -> {
                expect(b, '\n', "at the end of the body");
                state = State.DONE;
            }
            default -> throw new IllegalStateException("no framing byte is read in state " + state);
        }
    }

    private void size(byte b) throws IOException {
        int digit = Character.digit(b, 16);
        if (digit < 0) {
            throw malformed("a chunk size is hex digits; found byte " + (b & 0xff));
        }
        if (++digits > MAX_SIZE_DIGITS) {
            throw malformed("a chunk size has more than " + MAX_SIZE_DIGITS + " digits");
        }
        remaining = remaining << 4 | digit;
    }

    private void expect(byte b, char wanted, String where) throws IOException {
        if (b != wanted) {
            throw malformed("expected " + (wanted == '\r' ? "CR" : "LF") + " " + where + "; found byte " + (b & 0xff));
        }
    }

    /** A byte of an extension or a trailer line: no control character but HTAB (a bare LF ends no line here). */
    private void fieldByte(byte b, String where) throws IOException {
        if (++fieldBytes > MAX_FIELD_BYTES) {
            throw malformed("chunk extensions and trailers hold more than " + MAX_FIELD_BYTES + " bytes");
        }
        if ((b >= 0 && b < 0x20 && b != '\t') || b == 0x7f) {
            throw malformed("a control character (byte " + (b & 0xff) + ") in " + where);
        }
    }

    private IOException malformed(String what) {
        exchange.setPersistent(false);
        return new IOException("the chunked body is malformed: " + what);
    }
}
