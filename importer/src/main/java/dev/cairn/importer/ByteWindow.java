package dev.cairn.importer;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The part of a stream being read: the unread bytes are {@code buf[pos, limit)}, which {@link #fill} keeps (moved to
 * the start of the buffer, which doubles when they fill it) while it reads more. The reader moves {@code pos}.
 */
final class ByteWindow {
    private final InputStream in;
    byte[] buf;
    int pos;
    int limit;
    /** The stream offset of {@code buf[0]}. */
    long offset;
    private boolean eof;

    ByteWindow(InputStream in, int size) {
        this.in = in;
        this.buf = new byte[size];
    }

    /** Reads more of the stream after {@code limit}; false at its end. {@code pos} may move (and {@code buf} change). */
    boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            offset += pos;
            pos = 0;
        }
        if (limit == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
            return false;
        }
        limit += n;
        return true;
    }
}
