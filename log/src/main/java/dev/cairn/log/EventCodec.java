package dev.cairn.log;

import dev.cairn.xapi.DocumentKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * The binary form of an event, one Chronicle document each, written into and read from the document's bytes in
 * place (no intermediate copy). All numbers little-endian (the order of Chronicle Bytes on every platform it runs on).
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
 * The type byte of statements (1 or 4) has bit {@code 0x40} set when their credential lacked the define scope
 * ({@link StatementsStored#defines()} false); entries without the bit read as before.
 *
 * Statements that came with attachment contents are type 4: the type 1 layout, then the attachments, each once
 * (strings are an int32 byte length and UTF-8 bytes). A request without attachment contents stays type 1, so
 * entries written before type 4 existed and entries written now read the same way.
 * <pre>
 *  type 4, statements with attachments: type 1 layout | attachment count (i32) | count x attachment
 *  attachment: sha2 | contentType | content length (i32) | content
 * </pre>
 *
 * Document events (a key is kind byte, activityId, agent, registration, id; the kind byte is the ordinal of
 * {@link DocumentKey.Kind}, so its kinds' order is part of the format: add new kinds at the end):
 * <pre>
 *  type 2, document written:  key | contentType | content length (i32) | content | etag | updated ms (int64)
 *  type 3, documents deleted: key | all (byte 0/1) | updated ms (int64)
 * </pre>
 *
 * The format byte lets every later release read a log written today: a reader rejects a format it does not
 * know with a message naming the index, instead of misreading it.
 *
 * <p>Format 2 (written since format 1's layout could not tell a whole entry from one torn by a crash or a full
 * disk) is format 1 with a CRC32C after the format byte, of every byte of the entry after the checksum:
 * <pre>
 *  +--------+----------------+--------+-------------------------------------
 *  | 2      | crc32c (int32) | type   | as format 1 after its type byte
 *  +--------+----------------+--------+-------------------------------------
 * </pre>
 * Type 5 (format 2 only) is an entry an erasure rewrote in place ({@code dev.cairn.log.chronicle.LogRewrite}): the
 * type 4 layout, in which an erased statement has JSON of length 0 (it keeps its id, its stored time and its place),
 * or a negative length -n followed by the n bytes of its residue ({@code dev.cairn.xapi.StatementResidue}: what it gave
 * the shared tables), then zero bytes up to the length of the entry it replaced, so that Chronicle's index and every
 * later entry stay where they were:
 * <pre>
 *  type 5: type 4 layout | padding length (i32) | padding (zero bytes)
 * </pre>
 * Types 6 and 7 (format 2 only) are entries of type 1 and 4 an erasure rewrote slot by slot: the same layout, in which
 * every byte of a statement it left alone stays where it was, so that the rewrite writes only what changed (and a
 * checksum). A statement it removed or rewrote keeps its slot, the bytes its JSON took: its JSON length is the negative
 * of the slot's size, and the slot holds a kind byte (0: erased, 1: rewritten), the length (int32) and bytes of its
 * residue (none when 0) or of its new JSON, and zeros to its end. An attachment content the erasure dropped keeps its
 * place as zeros, its length n written as -(n + 1):
 * <pre>
 *  replaced slot:  id | stored ms | -slot (i32) | kind (byte) | n (i32) | n bytes | zeros to the slot's end
 * </pre>
 * Type 0 (format 2 only) is a void entry: a torn entry that the next writer neutralised
 * ({@code dev.cairn.log.chronicle.TornTail}); it keeps its place, and so Chronicle's index and sequence numbers, and
 * readers skip it. Format 1 entries read as
 * before, checked only by their structure.
 */
public final class EventCodec {
    public static final byte FORMAT_1 = 1;
    public static final byte FORMAT_2 = 2;
    public static final byte TYPE_VOID = 0;
    static final byte TYPE_STATEMENTS_STORED = 1;
    static final byte TYPE_DOCUMENT_WRITTEN = 2;
    static final byte TYPE_DOCUMENTS_DELETED = 3;
    static final byte TYPE_STATEMENTS_WITH_ATTACHMENTS = 4;
    static final byte TYPE_STATEMENTS_REWRITTEN = 5;
    static final byte TYPE_STATEMENTS_IN_SLOTS = 6;
    static final byte TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS = 7;
    private static final byte SLOT_ERASED = 0;
    private static final byte SLOT_REWRITTEN = 1;
    /** A replaced slot's kind byte and content length. */
    private static final int SLOT_HEADER = 5;
    static final byte FLAG_NO_DEFINE = 0x40;
    private static final int HEADER = 6;
    /** Format 2's CRC32C after the format byte. */
    private static final int CHECKSUM_BYTES = 4;
    /** id (two int64), stored ms (int64), json length (int32). */
    private static final int STATEMENT_HEADER = 28;
    private static final ThreadLocal<Checksum> CHECKSUM = ThreadLocal.withInitial(Checksum::new);
    /** The body of the entry being encoded, checksummed before it is written to the log in one copy. */
    private static final ThreadLocal<Bytes<byte[]>> BODY = ThreadLocal.withInitial(Bytes::allocateElasticOnHeap);
    /**
     * A body buffer grown past this is dropped after use, so one large document does not keep its size; an import's
     * batch (2,000 statements of a few KB) stays under it and reuses the buffer.
     */
    private static final int KEEP_BODY_BYTES = 16 << 20;

    private EventCodec() {
    }

    /** The bytes a statement's id takes in an entry ({@link #encode}), for a search of the log's raw bytes. */
    public static byte[] idBytes(UUID id) {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap(16);
        b.writeLong(id.getMostSignificantBits()).writeLong(id.getLeastSignificantBits());
        return b.toByteArray();
    }

    /**
     * Writes {@code event} in format 2 at the write position of {@code out} (the bytes of a log entry being written).
     * The body is built on the heap first: its checksum is known before the entry is written, and the log's memory
     * is only written, in one streaming copy (random access to Chronicle's mapped bytes is not safe across chunks).
     */
    public static void encode(Event event, BytesOut<?> out) {
        Bytes<byte[]> body = BODY.get();
        body.clear();
        try {
            body.ensureCapacity(encodedLength(event)); // grown once, not doubled and copied on the way
            encodeBody(event, body);
            writeChecked(body, out);
        } finally {
            if (body.realCapacity() > KEEP_BODY_BYTES) {
                BODY.remove();
            }
        }
    }

    /** Writes a void entry of {@code length} bytes (at least {@link #VOID_MIN}) at the write position of {@code out}. */
    public static void encodeVoid(BytesOut<?> out, int length) {
        Bytes<byte[]> body = Bytes.allocateElasticOnHeap(length);
        body.writeByte(TYPE_VOID);
        body.writeSkip(length - VOID_MIN);
        writeChecked(body, out);
    }

    private static void writeChecked(Bytes<byte[]> body, BytesOut<?> out) {
        int length = (int) body.writePosition();
        byte[] bytes = body.underlyingObject();
        out.writeByte(FORMAT_2).writeInt(CHECKSUM.get().of(bytes, length)).write(bytes, 0, length);
    }

    /**
     * Writes {@code event} as an entry of exactly {@code length} bytes (type 5: the statements, then zero padding), to
     * take the place of an entry of that length; false, with nothing written, when it does not fit in it.
     */
    public static boolean encodeRewritten(StatementsStored event, int length, BytesOut<?> out) {
        Bytes<byte[]> body = Bytes.allocateElasticOnHeap(length);
        encodeStatements(event, body, true);
        long padding = length - 1 - CHECKSUM_BYTES - body.writePosition() - 4;
        if (padding < 0) {
            return false;
        }
        body.writeInt((int) padding);
        body.writeSkip(padding); // an elastic heap buffer's fresh bytes are zeros
        writeChecked(body, out);
        return true;
    }

    /**
     * Writes {@code replacement} slot by slot over the entry {@code old} (its bytes as the log holds them) as type 6 or
     * 7 (above): {@code old} of format 2 and type 1, 4, 6 or 7 (an earlier erasure's slots are kept as they are),
     * {@code replacement} its statements in the same order (those left alone with the same JSON, or the same
     * tombstone) with the attachment contents it keeps. False, with nothing written, when {@code old} is of another
     * type or a replaced statement does not fit in its slot.
     */
    public static boolean encodeInSlots(byte[] old, StatementsStored replacement, BytesOut<?> out) {
        if (old.length <= TYPE_OFFSET || old[0] != FORMAT_2) {
            return false;
        }
        byte flags = (byte) (old[TYPE_OFFSET] & FLAG_NO_DEFINE);
        byte type = (byte) (old[TYPE_OFFSET] & ~FLAG_NO_DEFINE);
        boolean attachments = type == TYPE_STATEMENTS_WITH_ATTACHMENTS || type == TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS;
        if (!attachments && type != TYPE_STATEMENTS_STORED && type != TYPE_STATEMENTS_IN_SLOTS) {
            return false;
        }
        boolean slots = type == TYPE_STATEMENTS_IN_SLOTS || type == TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS;
        Bytes<byte[]> in = Bytes.wrapForRead(old);
        in.readPosition(TYPE_OFFSET + 1);
        int count = in.readInt();
        if (count != replacement.statements().size()) {
            throw new IllegalArgumentException("a rewrite keeps every statement's place");
        }
        // a fresh heap buffer: the bytes it skips over are zeros
        Bytes<byte[]> body = Bytes.allocateElasticOnHeap(old.length);
        body.writeByte((byte) ((attachments ? TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS : TYPE_STATEMENTS_IN_SLOTS)
                | flags)).writeInt(count);
        for (StoredStatement now : replacement.statements()) {
            long msb = in.readLong();
            long lsb = in.readLong();
            long stored = in.readLong();
            if (now.id().getMostSignificantBits() != msb || now.id().getLeastSignificantBits() != lsb) {
                throw new IllegalArgumentException("a rewrite keeps every statement's place: " + now.id());
            }
            body.writeLong(msb).writeLong(lsb).writeLong(stored);
            int length = in.readInt();
            if (length < 0 && !slots) {
                return false;
            }
            int slot = Math.abs(length);
            int at = (int) in.readPosition();
            if (slot > in.readRemaining()) {
                throw new IllegalStateException("a length of " + slot + " with " + in.readRemaining() + " bytes left");
            }
            in.readSkip(slot);
            // Most statements of a large entry are left alone: compared where they stand, not copied first
            boolean same;
            if (length >= 0) {
                same = !now.isErased() && Arrays.equals(now.json(), 0, now.json().length, old, at, at + slot);
            } else {
                StoredStatement before = slot(Bytes.wrapForRead(Arrays.copyOfRange(old, at, at + slot)), -1, now.id(),
                        stored, slot);
                same = now.isErased() == before.isErased() && Arrays.equals(now.isErased() ? now.residue() : now.json(),
                        before.isErased() ? before.residue() : before.json());
            }
            if (same) {
                body.writeInt(length).write(old, at, slot); // left alone: its bytes as they were
                continue;
            }
            byte[] content = now.isErased() ? (now.residue() == null ? new byte[0] : now.residue()) : now.json();
            if (SLOT_HEADER + content.length > slot) {
                return false;
            }
            body.writeInt(-slot).writeByte(now.isErased() ? SLOT_ERASED : SLOT_REWRITTEN).writeInt(content.length)
                    .write(content);
            body.writeSkip(slot - SLOT_HEADER - content.length);
        }
        if (attachments) {
            int n = in.readInt();
            body.writeInt(n);
            for (int i = 0; i < n; i++) {
                String sha2 = getString(in);
                String contentType = getString(in);
                putString(body, sha2);
                putString(body, contentType);
                int length = in.readInt();
                int size = length >= 0 ? length : -(length + 1); // a dropped content's -(size + 1): empty ones too
                byte[] content = bytes(in, size);
                if (length >= 0 && replacement.attachments().stream().anyMatch(k -> k.sha2().equals(sha2))) {
                    body.writeInt(length).write(content);
                } else {
                    body.writeInt(-(size + 1)).writeSkip(size);
                }
            }
        }
        if (in.readRemaining() != 0) {
            return false;
        }
        writeChecked(body, out);
        return true;
    }

    /** Where the type byte of an entry of format 2 is. */
    public static final int TYPE_OFFSET = 1 + CHECKSUM_BYTES;

    /**
     * Whether the entry whose bytes are the first {@code length} of {@code bytes} is one an erasure rewrote (types 5, 6
     * and 7), the only kind that holds erased statements' places: judged from its type byte alone, for a filter.
     */
    public static boolean isRewritten(byte[] bytes, int length) {
        if (length <= TYPE_OFFSET || bytes[0] != FORMAT_2) {
            return false;
        }
        int type = bytes[TYPE_OFFSET] & ~FLAG_NO_DEFINE;
        return type == TYPE_STATEMENTS_REWRITTEN || type == TYPE_STATEMENTS_IN_SLOTS
                || type == TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS;
    }

    /**
     * Writes the entry at the read position of {@code entry} again without the padding an erasure left in it (a type 5
     * entry's zero bytes, the slots of a type 6 or 7 entry, as type 5; a void entry's length past {@link #VOID_MIN}),
     * for a compaction of the log; false, with
     * nothing written or read, when it has none. The event read back is the same.
     *
     * @throws BadLogEntryException when the entry does not decode
     */
    public static boolean encodeCompacted(Bytes<?> entry, long index, BytesOut<?> out) {
        long start = entry.readPosition();
        long length = entry.readRemaining();
        if (length <= VOID_MIN || entry.readByte(start) != FORMAT_2) {
            return false; // format 1 has neither type
        }
        byte type = entry.readByte(start + TYPE_OFFSET);
        if (type != TYPE_VOID && (type & ~FLAG_NO_DEFINE) != TYPE_STATEMENTS_REWRITTEN
                && (type & ~FLAG_NO_DEFINE) != TYPE_STATEMENTS_IN_SLOTS
                && (type & ~FLAG_NO_DEFINE) != TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS) {
            return false;
        }
        Event event = decode(entry, index); // its checksum checked: damage is never turned into a valid entry
        if (event instanceof EntryVoided) {
            encodeVoid(out, VOID_MIN);
            return true;
        }
        StatementsStored statements = (StatementsStored) event;
        long shortest = rewrittenLength(statements);
        if (shortest >= length) {
            entry.readPosition(start);
            return false;
        }
        return encodeRewritten(statements, (int) shortest, out);
    }

    /** The fewest bytes {@link #encodeRewritten} needs for {@code event} (no padding). */
    public static long rewrittenLength(StatementsStored event) {
        long json = 0;
        for (StoredStatement s : event.statements()) {
            json += s.bodyLength();
        }
        long length = statementsLength(event.statements().size(), json, event.attachments());
        return length + (event.attachments().isEmpty() ? 4 : 0) + 4; // the attachment count always, the padding's
    }

    /** The shortest entry a void entry can replace. */
    public static final int VOID_MIN = 6;

    /** The bytes of a body in format 1's layout after its format byte. */
    private static void encodeBody(Event event, BytesOut<?> out) {
        if (event instanceof StatementsStored stored) {
            encodeStatements(stored, out);
        } else if (event instanceof DocumentWritten written) {
            out.writeByte(TYPE_DOCUMENT_WRITTEN);
            putKey(out, written.key());
            putString(out, written.contentType());
            out.writeInt(written.content().length).write(written.content());
            putString(out, written.etag());
            out.writeLong(written.updatedMillis());
        } else if (event instanceof DocumentsDeleted deleted) {
            out.writeByte(TYPE_DOCUMENTS_DELETED);
            putKey(out, deleted.key());
            out.writeByte((byte) (deleted.all() ? 1 : 0)).writeLong(deleted.updatedMillis());
        } else {
            throw new IllegalArgumentException("a void entry is written only by the torn-tail repair");
        }
    }

    /**
     * How many bytes {@link #encode} writes for {@code event}, computed without writing them, so that an event the
     * log cannot hold is refused before any of it is written.
     */
    public static long encodedLength(Event event) {
        if (event instanceof StatementsStored stored) {
            long json = 0;
            for (StoredStatement s : stored.statements()) {
                json += s.json().length;
            }
            return statementsLength(stored.statements().size(), json, stored.attachments());
        }
        if (event instanceof DocumentWritten written) {
            return 2 + CHECKSUM_BYTES + keyLength(written.key()) + stringLength(written.contentType()) + 4L
                    + written.content().length
                    + stringLength(written.etag()) + 8;
        }
        return 2 + CHECKSUM_BYTES + keyLength(((DocumentsDeleted) event).key()) + 1 + 8;
    }

    /**
     * The encoded length of {@code count} statements whose JSON takes {@code jsonBytes} in all, with
     * {@code attachments}: what a writer can check before it has the statements' final form.
     */
    public static long statementsLength(int count, long jsonBytes, List<AttachmentContent> attachments) {
        long length = HEADER + CHECKSUM_BYTES + (long) count * STATEMENT_HEADER + jsonBytes;
        if (!attachments.isEmpty()) {
            length += 4;
            for (AttachmentContent a : attachments) {
                length += stringLength(a.sha2()) + stringLength(a.contentType()) + 4L + a.content().length;
            }
        }
        return length;
    }

    private static long keyLength(DocumentKey key) {
        return 1 + stringLength(key.activityId()) + stringLength(key.agent()) + stringLength(key.registration())
                + stringLength(key.id());
    }

    private static long stringLength(String s) {
        return 4L + utf8Length(s);
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                n++; // String.getBytes writes a lone surrogate as '?'
            } else {
                n += 3;
            }
        }
        return n;
    }

    private static void encodeStatements(StatementsStored stored, BytesOut<?> out) {
        encodeStatements(stored, out, false);
    }

    /** Type 1 or 4, or with {@code rewritten} type 5 without its padding (its attachment count always written). */
    private static void encodeStatements(StatementsStored stored, BytesOut<?> out, boolean rewritten) {
        boolean withAttachments = rewritten || !stored.attachments().isEmpty();
        byte type = rewritten ? TYPE_STATEMENTS_REWRITTEN
                : withAttachments ? TYPE_STATEMENTS_WITH_ATTACHMENTS : TYPE_STATEMENTS_STORED;
        out.writeByte((byte) (stored.defines() ? type : type | FLAG_NO_DEFINE)).writeInt(stored.statements().size());
        for (StoredStatement s : stored.statements()) {
            out.writeLong(s.id().getMostSignificantBits()).writeLong(s.id().getLeastSignificantBits())
                    .writeLong(s.storedMillis());
            if (s.residue() == null) {
                out.writeInt(s.json().length).write(s.json());
            } else if (rewritten) {
                out.writeInt(-s.residue().length).write(s.residue());
            } else {
                throw new IllegalArgumentException("only an erasure's rewrite writes an erased statement's residue");
            }
        }
        if (withAttachments) {
            out.writeInt(stored.attachments().size());
            for (AttachmentContent a : stored.attachments()) {
                putString(out, a.sha2());
                putString(out, a.contentType());
                out.writeInt(a.content().length).write(a.content());
            }
        }
    }

    private static void putKey(BytesOut<?> out, DocumentKey key) {
        out.writeByte((byte) key.kind().ordinal()); // the format: new DocumentKey kinds go at the end, never between
        putString(out, key.activityId());
        putString(out, key.agent());
        putString(out, key.registration());
        putString(out, key.id());
    }

    private static void putString(BytesOut<?> out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length).write(b);
    }

    private static String getString(BytesIn<?> in) {
        return new String(getBytes(in), StandardCharsets.UTF_8);
    }

    private static byte[] getBytes(BytesIn<?> in) {
        return bytes(in, in.readInt());
    }

    /** The next {@code length} bytes of {@code in}, whose length was read already. */
    private static byte[] bytes(BytesIn<?> in, int length) {
        if (length < 0 || length > in.readRemaining()) {
            throw new IllegalStateException("a length of " + length + " with " + in.readRemaining() + " bytes left");
        }
        byte[] b = new byte[length];
        in.read(b);
        return b;
    }

    private static DocumentKey getKey(BytesIn<?> in) {
        DocumentKey.Kind kind = DocumentKey.Kind.values()[in.readByte()];
        return new DocumentKey(kind, getString(in), getString(in), getString(in), getString(in));
    }

    /**
     * Decodes the event at the read position of {@code in}, which ends at its read limit.
     * {@code index} only names the entry in an error message.
     *
     * @throws BadLogEntryException when the entry was not written whole (its checksum or structure is wrong) or is of
     *                              a format this release cannot read
     */
    public static Event decode(BytesIn<?> in, long index) {
        if (in.readRemaining() < HEADER) {
            throw new BadLogEntryException(index, "is " + in.readRemaining() + " bytes, shorter than the event header");
        }
        byte format = in.readByte();
        if (format == FORMAT_2) {
            int expected = in.readInt();
            long body = in.readPosition();
            int actual = CHECKSUM.get().of(in);
            in.readPosition(body);
            if (actual != expected) {
                throw new BadLogEntryException(index, "fails its checksum (it was not written whole)");
            }
        } else if (format != FORMAT_1) {
            throw new BadLogEntryException(index, "has format " + format + ", which this release of Cairn cannot read"
                    + " (it reads formats " + FORMAT_1 + " and " + FORMAT_2 + ")");
        }
        try {
            Event e = decodeBody(in, index, format);
            if (in.readRemaining() != 0) {
                throw new BadLogEntryException(index, "has " + in.readRemaining() + " bytes after its event");
            }
            return e;
        } catch (BadLogEntryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BadLogEntryException(index, "cannot be decoded: " + e);
        }
    }

    private static Event decodeBody(BytesIn<?> in, long index, byte format) {
        byte type = in.readByte();
        if (type == TYPE_VOID && format == FORMAT_2) {
            in.readSkip(in.readRemaining());
            return EntryVoided.INSTANCE;
        }
        if (type == TYPE_DOCUMENT_WRITTEN) {
            DocumentKey key = getKey(in);
            String contentType = getString(in);
            byte[] content = getBytes(in);
            return new DocumentWritten(key, contentType, content, getString(in), in.readLong());
        }
        if (type == TYPE_DOCUMENTS_DELETED) {
            return new DocumentsDeleted(getKey(in), in.readByte() == 1, in.readLong());
        }
        boolean defines = (type & FLAG_NO_DEFINE) == 0;
        type &= ~FLAG_NO_DEFINE;
        boolean inSlots = type == TYPE_STATEMENTS_IN_SLOTS || type == TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS;
        if (type != TYPE_STATEMENTS_STORED && type != TYPE_STATEMENTS_WITH_ATTACHMENTS
                && !((type == TYPE_STATEMENTS_REWRITTEN || inSlots) && format == FORMAT_2)) {
            throw new BadLogEntryException(index, "has unknown type " + type);
        }
        int count = in.readInt();
        if (count < 0 || count > in.readRemaining()) {
            throw new BadLogEntryException(index, "claims " + count + " statements");
        }
        List<StoredStatement> statements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            UUID id = new UUID(in.readLong(), in.readLong());
            long stored = in.readLong();
            int length = in.readInt();
            if (length < 0 && type == TYPE_STATEMENTS_REWRITTEN && -length <= in.readRemaining()) {
                byte[] residue = new byte[-length];
                in.read(residue);
                statements.add(StoredStatement.erased(id, stored, residue));
            } else if (length < 0 && inSlots) {
                statements.add(slot(in, index, id, stored, -length));
            } else {
                statements.add(new StoredStatement(id, stored, bytes(in, length)));
            }
        }
        if (type == TYPE_STATEMENTS_STORED || type == TYPE_STATEMENTS_IN_SLOTS) {
            return new StatementsStored(statements, List.of(), defines);
        }
        int attachmentCount = in.readInt();
        if (attachmentCount < 0 || attachmentCount > in.readRemaining()) {
            throw new BadLogEntryException(index, "claims " + attachmentCount + " attachments");
        }
        List<AttachmentContent> attachments = new ArrayList<>(attachmentCount);
        for (int i = 0; i < attachmentCount; i++) {
            String sha2 = getString(in);
            String contentType = getString(in);
            int length = in.readInt();
            if (length < 0 && inSlots) { // a content the erasure dropped: -(its length + 1), then zeros
                int dropped = -(length + 1);
                if (dropped > in.readRemaining()) {
                    throw new BadLogEntryException(index, "has a dropped attachment of " + dropped + " bytes with "
                            + in.readRemaining() + " left");
                }
                in.readSkip(dropped);
            } else {
                attachments.add(new AttachmentContent(sha2, contentType, bytes(in, length)));
            }
        }
        if (type == TYPE_STATEMENTS_REWRITTEN) {
            int padding = in.readInt();
            if (padding != in.readRemaining()) {
                throw new BadLogEntryException(index, "has " + in.readRemaining() + " bytes of padding where it says "
                        + padding);
            }
            in.readSkip(padding);
        }
        return new StatementsStored(statements, attachments, defines);
    }

    /** A statement's slot that an erasure replaced (types 6 and 7), {@code slot} bytes from the read position. */
    private static StoredStatement slot(BytesIn<?> in, long index, UUID id, long stored, int slot) {
        if (slot < SLOT_HEADER || slot > in.readRemaining()) {
            throw new BadLogEntryException(index, "has a statement slot of " + slot + " bytes");
        }
        byte kind = in.readByte();
        int n = in.readInt();
        if (n < 0 || n > slot - SLOT_HEADER) {
            throw new BadLogEntryException(index, "has " + n + " bytes in a statement slot of " + slot);
        }
        byte[] content = new byte[n];
        in.read(content);
        in.readSkip(slot - SLOT_HEADER - n);
        return switch (kind) {
            case SLOT_ERASED -> StoredStatement.erased(id, stored, n == 0 ? null : content);
            case SLOT_REWRITTEN -> new StoredStatement(id, stored, content);
            default -> throw new BadLogEntryException(index, "has a statement slot of kind " + kind);
        };
    }

    /** A CRC32C and the buffer it reads Chronicle's memory through, one per thread. */
    private static final class Checksum {
        private final CRC32C crc = new CRC32C();
        private final byte[] buffer = new byte[8192];

        /** Of the bytes from the read position of {@code in} to its limit, read by streaming (it moves the position). */
        int of(BytesIn<?> in) {
            crc.reset();
            while (in.readRemaining() > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, in.readRemaining()));
                crc.update(buffer, 0, n);
            }
            return (int) crc.getValue();
        }

        int of(byte[] bytes, int length) {
            crc.reset();
            crc.update(bytes, 0, length);
            return (int) crc.getValue();
        }
    }
}
