package dev.cairn.store;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * Rows for PostgreSQL's bulk load path, {@code COPY ... FROM STDIN (FORMAT binary)}: the server stores them without
 * planning and evaluating an INSERT per row or parsing text. Each row's fields are written in the column order the
 * COPY statement names, in the format's big-endian encoding, and {@link #send} loads them all at once.
 */
final class BinaryCopy {
    /** The signature, then a flags field and a header extension length, both 0. */
    private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0,
            0, 0, 0, 0, 0, 0, 0, 0};

    private static final int INITIAL_BYTES = 1 << 16;
    /** A buffer grown past this by a large load is let go after it, rather than held for the writer's life. */
    private static final int KEPT_BYTES = 32 << 20;

    private final CopyManager copy;
    private final String sql;
    private byte[] buf = new byte[INITIAL_BYTES];
    private int size;
    private int rows;

    /** {@code sql} is a {@code COPY table (columns) FROM STDIN (FORMAT binary)} statement. */
    BinaryCopy(Connection c, String sql) throws SQLException {
        this.copy = c.unwrap(PGConnection.class).getCopyAPI();
        this.sql = sql;
        clear();
    }

    /** Starts a row of {@code fields} fields. */
    BinaryCopy row(int fields) {
        rows++;
        return putShort(fields);
    }

    BinaryCopy int8(long v) {
        putInt(8);
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
        return this;
    }

    BinaryCopy int2(int v) {
        putInt(2);
        return putShort(v);
    }

    BinaryCopy bytea(byte[] v) {
        putInt(v.length);
        ensure(v.length);
        System.arraycopy(v, 0, buf, size, v.length);
        size += v.length;
        return this;
    }

    BinaryCopy text(String v) {
        return bytea(v.getBytes(StandardCharsets.UTF_8));
    }

    /** Loads the rows written since the last send into the table, in the open transaction. */
    void send() throws SQLException {
        if (rows == 0) {
            return;
        }
        putShort(-1); // the trailer
        CopyIn in = copy.copyIn(sql);
        try {
            in.writeToCopy(buf, 0, size);
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
        clear();
    }

    /** Forgets the rows written since the last send. */
    void clear() {
        if (buf.length > KEPT_BYTES) {
            buf = new byte[INITIAL_BYTES];
        }
        System.arraycopy(HEADER, 0, buf, 0, HEADER.length);
        size = HEADER.length;
        rows = 0;
    }

    private BinaryCopy putShort(int v) {
        ensure(2);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
        return this;
    }

    private void putInt(int v) {
        ensure(4);
        buf[size++] = (byte) (v >>> 24);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }
}
