package dev.cairn.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The binary form of an event, one Chronicle document each. All numbers little-endian.
 *
 * <pre>
 *  0        1        2                  6
 *  +--------+--------+------------------+---------------------------------------+
 *  | format | type   | count (int32)    | count x statement                     |
 *  +--------+--------+------------------+---------------------------------------+
 *
 *  statement:
 *  +----------------+----------------+------------------+------------------+------------+
 *  | id msb (int64) | id lsb (int64) | stored ms (int64)| json length (i32)| json bytes |
 *  +----------------+----------------+------------------+------------------+------------+
 * </pre>
 *
 * The format byte lets every later release read a log written today: a reader rejects a format it does not
 * know with a message naming the index, instead of misreading it.
 */
public final class EventCodec {
    public static final byte FORMAT_1 = 1;
    static final byte TYPE_STATEMENTS_STORED = 1;
    private static final int HEADER = 6;
    private static final int STATEMENT_HEADER = 28;

    private EventCodec() {
    }

    public static byte[] encode(Event event) {
        StatementsStored stored = (StatementsStored) event;
        int size = HEADER;
        for (StoredStatement s : stored.statements()) {
            size += STATEMENT_HEADER + s.json().length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(FORMAT_1).put(TYPE_STATEMENTS_STORED).putInt(stored.statements().size());
        for (StoredStatement s : stored.statements()) {
            b.putLong(s.id().getMostSignificantBits()).putLong(s.id().getLeastSignificantBits())
                    .putLong(s.storedMillis()).putInt(s.json().length).put(s.json());
        }
        return b.array();
    }

    /** Decodes one event; {@code index} only names the entry in an error message. */
    public static Event decode(byte[] data, long index) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        if (data.length < HEADER) {
            throw new IllegalStateException("log entry at index " + Long.toHexString(index) + " is " + data.length
                    + " bytes, shorter than the event header");
        }
        byte format = b.get();
        if (format != FORMAT_1) {
            throw new IllegalStateException("log entry at index " + Long.toHexString(index) + " has format " + format
                    + ", which this release of Cairn cannot read (it reads format " + FORMAT_1 + ")");
        }
        byte type = b.get();
        if (type != TYPE_STATEMENTS_STORED) {
            throw new IllegalStateException("log entry at index " + Long.toHexString(index) + " has unknown type " + type);
        }
        int count = b.getInt();
        List<StoredStatement> statements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            UUID id = new UUID(b.getLong(), b.getLong());
            long stored = b.getLong();
            byte[] json = new byte[b.getInt()];
            b.get(json);
            statements.add(new StoredStatement(id, stored, json));
        }
        return new StatementsStored(statements);
    }
}
