package dev.cairn.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import dev.cairn.xapi.DocumentKey;

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
 * Statements that came with attachment contents are type 4: the type 1 layout, then the attachments, each once
 * (strings are an int32 byte length and UTF-8 bytes). A request without attachment contents stays type 1, so
 * entries written before type 4 existed and entries written now read the same way.
 * <pre>
 *  type 4, statements with attachments: type 1 layout | attachment count (i32) | count x attachment
 *  attachment: sha2 | contentType | content length (i32) | content
 * </pre>
 *
 * Document events (a key is kind byte, activityId, agent, registration, id):
 * <pre>
 *  type 2, document written:  key | contentType | content length (i32) | content | etag | updated ms (int64)
 *  type 3, documents deleted: key | all (byte 0/1) | updated ms (int64)
 * </pre>
 *
 * The format byte lets every later release read a log written today: a reader rejects a format it does not
 * know with a message naming the index, instead of misreading it.
 */
public final class EventCodec {
    public static final byte FORMAT_1 = 1;
    static final byte TYPE_STATEMENTS_STORED = 1;
    static final byte TYPE_DOCUMENT_WRITTEN = 2;
    static final byte TYPE_DOCUMENTS_DELETED = 3;
    static final byte TYPE_STATEMENTS_WITH_ATTACHMENTS = 4;
    private static final int HEADER = 6;
    private static final int STATEMENT_HEADER = 28;

    private EventCodec() {
    }

    public static byte[] encode(Event event) {
        if (event instanceof StatementsStored stored) {
            return encodeStatements(stored);
        }
        if (event instanceof DocumentWritten written) {
            byte[][] strings = keyStrings(written.key(), written.contentType(), written.etag());
            ByteBuffer b = header(TYPE_DOCUMENT_WRITTEN, size(strings) + 1 + 4 + written.content().length + 8);
            putKey(b, written.key(), strings);
            putString(b, strings[4]);
            b.putInt(written.content().length).put(written.content());
            putString(b, strings[5]);
            b.putLong(written.updatedMillis());
            return b.array();
        }
        DocumentsDeleted deleted = (DocumentsDeleted) event;
        byte[][] strings = keyStrings(deleted.key());
        ByteBuffer b = header(TYPE_DOCUMENTS_DELETED, size(strings) + 1 + 1 + 8);
        putKey(b, deleted.key(), strings);
        b.put((byte) (deleted.all() ? 1 : 0)).putLong(deleted.updatedMillis());
        return b.array();
    }

    private static byte[] encodeStatements(StatementsStored stored) {
        int size = HEADER;
        for (StoredStatement s : stored.statements()) {
            size += STATEMENT_HEADER + s.json().length;
        }
        boolean withAttachments = !stored.attachments().isEmpty();
        byte[][] strings = new byte[stored.attachments().size() * 2][];
        if (withAttachments) {
            size += 4;
            for (int i = 0; i < stored.attachments().size(); i++) {
                AttachmentContent a = stored.attachments().get(i);
                strings[2 * i] = a.sha2().getBytes(StandardCharsets.UTF_8);
                strings[2 * i + 1] = a.contentType().getBytes(StandardCharsets.UTF_8);
                size += 4 + strings[2 * i].length + 4 + strings[2 * i + 1].length + 4 + a.content().length;
            }
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(FORMAT_1).put(withAttachments ? TYPE_STATEMENTS_WITH_ATTACHMENTS : TYPE_STATEMENTS_STORED)
                .putInt(stored.statements().size());
        for (StoredStatement s : stored.statements()) {
            b.putLong(s.id().getMostSignificantBits()).putLong(s.id().getLeastSignificantBits())
                    .putLong(s.storedMillis()).putInt(s.json().length).put(s.json());
        }
        if (withAttachments) {
            b.putInt(stored.attachments().size());
            for (int i = 0; i < stored.attachments().size(); i++) {
                byte[] content = stored.attachments().get(i).content();
                putString(b, strings[2 * i]);
                putString(b, strings[2 * i + 1]);
                b.putInt(content.length).put(content);
            }
        }
        return b.array();
    }

    private static ByteBuffer header(byte type, int bodySize) {
        return ByteBuffer.allocate(2 + bodySize).order(ByteOrder.LITTLE_ENDIAN).put(FORMAT_1).put(type);
    }

    private static byte[][] keyStrings(DocumentKey key, String... more) {
        byte[][] out = new byte[4 + more.length][];
        out[0] = key.activityId().getBytes(StandardCharsets.UTF_8);
        out[1] = key.agent().getBytes(StandardCharsets.UTF_8);
        out[2] = key.registration().getBytes(StandardCharsets.UTF_8);
        out[3] = key.id().getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < more.length; i++) {
            out[4 + i] = more[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    private static int size(byte[][] strings) {
        int n = 0;
        for (byte[] s : strings) {
            n += 4 + s.length;
        }
        return n;
    }

    private static void putKey(ByteBuffer b, DocumentKey key, byte[][] strings) {
        b.put((byte) key.kind().ordinal());
        for (int i = 0; i < 4; i++) {
            putString(b, strings[i]);
        }
    }

    private static void putString(ByteBuffer b, byte[] s) {
        b.putInt(s.length).put(s);
    }

    private static String getString(ByteBuffer b) {
        byte[] s = new byte[b.getInt()];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static DocumentKey getKey(ByteBuffer b) {
        DocumentKey.Kind kind = DocumentKey.Kind.values()[b.get()];
        return new DocumentKey(kind, getString(b), getString(b), getString(b), getString(b));
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
        if (type == TYPE_DOCUMENT_WRITTEN) {
            DocumentKey key = getKey(b);
            String contentType = getString(b);
            byte[] content = new byte[b.getInt()];
            b.get(content);
            return new DocumentWritten(key, contentType, content, getString(b), b.getLong());
        }
        if (type == TYPE_DOCUMENTS_DELETED) {
            return new DocumentsDeleted(getKey(b), b.get() == 1, b.getLong());
        }
        if (type != TYPE_STATEMENTS_STORED && type != TYPE_STATEMENTS_WITH_ATTACHMENTS) {
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
        if (type == TYPE_STATEMENTS_STORED) {
            return new StatementsStored(statements);
        }
        int attachmentCount = b.getInt();
        List<AttachmentContent> attachments = new ArrayList<>(attachmentCount);
        for (int i = 0; i < attachmentCount; i++) {
            String sha2 = getString(b);
            String contentType = getString(b);
            byte[] content = new byte[b.getInt()];
            b.get(content);
            attachments.add(new AttachmentContent(sha2, contentType, content));
        }
        return new StatementsStored(statements, attachments);
    }
}
