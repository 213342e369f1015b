package dev.cairn.log;

import net.openhft.chronicle.bytes.Bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.DocumentKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class EventCodecTest {
    private static final UUID ID = UUID.fromString("3f9c1d2e-0000-4000-8000-000000000001");
    private static final byte[] JSON = "{\"id\":\"3f9c1d2e-0000-4000-8000-000000000001\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void statementsWithAttachmentsRoundTrip() {
        byte[] content = {0, 1, 2, (byte) 0xff};
        StatementsStored in = new StatementsStored(List.of(new StoredStatement(ID, 42, JSON)),
                List.of(new AttachmentContent("ab12", "application/octet-stream", content)), true);
        byte[] encoded = encoded(in);
        assertEquals(EventCodec.TYPE_STATEMENTS_WITH_ATTACHMENTS, encoded[5]);

        StatementsStored out = (StatementsStored) decoded(encoded, 7);
        assertEquals(1, out.statements().size());
        assertArrayEquals(JSON, out.statements().get(0).json());
        assertEquals(1, out.attachments().size());
        assertEquals("ab12", out.attachments().get(0).sha2());
        assertEquals("application/octet-stream", out.attachments().get(0).contentType());
        assertArrayEquals(content, out.attachments().get(0).content());
    }

    @Test
    void statementsFromACredentialWithoutDefineCarryTheFlagInTheirType() {
        byte[] encoded = encoded(new StatementsStored(List.of(new StoredStatement(ID, 42, JSON)), List.of(), false));
        assertEquals(EventCodec.TYPE_STATEMENTS_STORED | EventCodec.FLAG_NO_DEFINE, encoded[5]);
        StatementsStored out = (StatementsStored) decoded(encoded, 3);
        assertFalse(out.defines());
        assertArrayEquals(JSON, out.statements().get(0).json());
        assertTrue(((StatementsStored) decoded(typeOneEntry(), 1)).defines(), "entries without the flag may define");
    }

    /** Format 2 is format 1 with the format byte 2 and a CRC32C of the rest after it. */
    @Test
    void formatTwoIsTheFirstLayoutWithAChecksumOfTheRest() {
        byte[] encoded = encoded(new StatementsStored(List.of(new StoredStatement(ID, 42, JSON))));
        byte[] one = typeOneEntry();
        assertEquals(one.length + 4, encoded.length);
        assertEquals(EventCodec.FORMAT_2, encoded[0]);
        assertArrayEquals(Arrays.copyOfRange(one, 1, one.length), Arrays.copyOfRange(encoded, 5, encoded.length));
        CRC32C crc = new CRC32C();
        crc.update(encoded, 5, encoded.length - 5);
        assertEquals((int) crc.getValue(), ByteBuffer.wrap(encoded, 1, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
    }

    @Test
    void anEntryWithAnyByteChangedFailsItsCheck() {
        byte[] encoded = encoded(new StatementsStored(List.of(new StoredStatement(ID, 42, JSON))));
        for (int i = 0; i < encoded.length; i++) {
            byte[] damaged = encoded.clone();
            damaged[i] ^= 0x10;
            assertThrows(BadLogEntryException.class, () -> decoded(damaged, 5), "byte " + i);
        }
    }

    /** What a full disk left in the log of an earlier release: a complete Chronicle header over zeros. */
    @Test
    void anEntryOfZerosIsBadAndNamesItsIndex() {
        BadLogEntryException e = assertThrows(BadLogEntryException.class, () -> decoded(new byte[400], 0xabc));
        assertEquals(0xabc, e.position());
        assertTrue(e.getMessage().contains("abc"), e.getMessage());
    }

    @Test
    void aTruncatedEntryIsBadInEitherFormat() {
        byte[] two = encoded(new StatementsStored(List.of(new StoredStatement(ID, 42, JSON))));
        byte[] one = typeOneEntry();
        for (int cut = 0; cut < one.length; cut++) {
            byte[] shortTwo = Arrays.copyOf(two, cut + 4);
            byte[] shortOne = Arrays.copyOf(one, cut);
            assertThrows(BadLogEntryException.class, () -> decoded(shortTwo, 1), "format 2 cut at " + cut);
            assertThrows(BadLogEntryException.class, () -> decoded(shortOne, 1), "format 1 cut at " + cut);
        }
    }

    @Test
    void aVoidEntryDecodesAsVoided() {
        Bytes<?> out = Bytes.allocateElasticOnHeap();
        EventCodec.encodeVoid(out, 300);
        assertEquals(300, out.writePosition());
        assertEquals(EntryVoided.INSTANCE, decoded(out.toByteArray(), 1));
    }

    /** An entry as releases before attachments wrote it, built byte by byte from the documented layout. */
    @Test
    void anEntryOfTheFirstLayoutStillDecodes() {
        StatementsStored out = (StatementsStored) decoded(typeOneEntry(), 1);
        assertEquals(ID, out.statements().get(0).id());
        assertEquals(42, out.statements().get(0).storedMillis());
        assertArrayEquals(JSON, out.statements().get(0).json());
        assertTrue(out.attachments().isEmpty());
    }

    @Test
    void encodedLengthIsWhatEncodeWrites() {
        DocumentKey key = new DocumentKey(DocumentKey.Kind.STATE, "http://example.com/é", "{\"mbox\":\"mailto:a@b\"}",
                "", "state-😀-\ud800");
        List<Event> events = List.of(
                new StatementsStored(List.of(new StoredStatement(ID, 42, JSON), new StoredStatement(ID, 43, new byte[0]))),
                new StatementsStored(List.of(new StoredStatement(ID, 42, JSON)),
                        List.of(new AttachmentContent("ab12", "text/plain; charset=ü", new byte[] {1, 2, 3})), false),
                new DocumentWritten(key, "application/json", "{\"a\":1}".getBytes(StandardCharsets.UTF_8),
                        "0123456789abcdef0123456789abcdef01234567", 7),
                new DocumentsDeleted(key, true, 8));
        for (Event e : events) {
            assertEquals(encoded(e).length, EventCodec.encodedLength(e), e.toString());
        }
    }

    /** An erasure's rewrite keeps an erased statement's residue (what it gave the shared tables) in its place. */
    @Test
    void aRewrittenEntryKeepsErasedStatementsResiduesAndPadsToItsPlace() {
        byte[] residue = {1, 0, 0, 0, 0};
        StatementsStored in = new StatementsStored(List.of(StoredStatement.erased(ID, 42, residue),
                StoredStatement.erased(new UUID(1, 2), 43), new StoredStatement(new UUID(3, 4), 44, JSON)), List.of(),
                true);
        int length = (int) EventCodec.rewrittenLength(in) + 10;
        Bytes<?> out = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeRewritten(in, length, out));
        assertEquals(length, out.writePosition());
        assertFalse(EventCodec.encodeRewritten(in, length - 11, Bytes.allocateElasticOnHeap()), "it does not fit");

        StatementsStored back = (StatementsStored) decoded(out.toByteArray(), 5);
        assertTrue(back.statements().get(0).isErased());
        assertArrayEquals(residue, back.statements().get(0).residue());
        assertTrue(back.statements().get(1).isErased());
        assertEquals(null, back.statements().get(1).residue());
        assertArrayEquals(JSON, back.statements().get(2).json());
        assertThrows(IllegalArgumentException.class, () -> encoded(in), "only a rewrite writes residues");
    }

    private static StoredStatement statement(int i, String text) {
        UUID id = new UUID(7, i);
        return new StoredStatement(id, 100 + i, ("{\"id\":\"" + id + "\",\"text\":\"" + text + "\"}")
                .getBytes(StandardCharsets.UTF_8));
    }

    /**
     * An erasure's rewrite of an entry as an ingest wrote it keeps every byte of what it left alone in place: a removed
     * statement and a rewritten one take their own slots, a dropped attachment content turns to zeros in its place.
     */
    @Test
    void anEntryRewrittenSlotBySlotChangesOnlyTheSlotsOfWhatTheErasureChanged() {
        StoredStatement removed = statement(1, "ada@example.com wrote this");
        StoredStatement rewritten = statement(2, "asked ada@example.com");
        StoredStatement kept = statement(3, "bob's own");
        AttachmentContent essay = new AttachmentContent("ab12", "text/plain", "essay of ada".getBytes(StandardCharsets.UTF_8));
        AttachmentContent other = new AttachmentContent("cd34", "text/plain", "bob's".getBytes(StandardCharsets.UTF_8));
        StatementsStored original = new StatementsStored(List.of(removed, rewritten, kept), List.of(essay, other), true);
        byte[] before = encoded(original);
        byte[] residue = {1, 0, 0, 0, 0};
        StoredStatement shorter = new StoredStatement(rewritten.id(), rewritten.storedMillis(),
                ("{\"id\":\"" + rewritten.id() + "\",\"text\":\"asked erased\"}").getBytes(StandardCharsets.UTF_8));
        StatementsStored replacement = new StatementsStored(List.of(StoredStatement.erased(removed.id(),
                removed.storedMillis(), residue), shorter, kept), List.of(other), true);

        Bytes<?> out = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeInSlots(before, replacement, out));
        byte[] after = out.toByteArray();
        assertEquals(before.length, after.length, "the entry keeps its length");
        assertEquals(EventCodec.TYPE_STATEMENTS_WITH_ATTACHMENTS_IN_SLOTS, after[5]);
        int keptAt = indexOf(before, kept.json());
        assertEquals(keptAt, indexOf(after, kept.json()), "what the erasure left alone stays in place");
        int otherAt = indexOf(before, other.content());
        assertEquals(otherAt, indexOf(after, other.content()));
        assertEquals(-1, indexOf(after, "ada".getBytes(StandardCharsets.UTF_8)), "nothing of Ada is left");

        StatementsStored back = (StatementsStored) decoded(after, 6);
        assertTrue(back.statements().get(0).isErased());
        assertArrayEquals(residue, back.statements().get(0).residue());
        assertArrayEquals(shorter.json(), back.statements().get(1).json());
        assertArrayEquals(kept.json(), back.statements().get(2).json());
        assertEquals(List.of("cd34"), back.attachments().stream().map(AttachmentContent::sha2).toList());

        // A later erasure of the statement left alone keeps the earlier one's slots as they are.
        Bytes<?> later = Bytes.allocateElasticOnHeap();
        StatementsStored both = new StatementsStored(List.of(replacement.statements().get(0), shorter,
                StoredStatement.erased(kept.id(), kept.storedMillis())), List.of(), true);
        assertTrue(EventCodec.encodeInSlots(after, both, later));
        byte[] third = later.toByteArray();
        assertEquals(after.length, third.length);
        assertEquals(indexOf(after, shorter.json()), indexOf(third, shorter.json()));
        StatementsStored backAgain = (StatementsStored) decoded(third, 6);
        assertArrayEquals(residue, backAgain.statements().get(0).residue());
        assertArrayEquals(shorter.json(), backAgain.statements().get(1).json());
        assertTrue(backAgain.statements().get(2).isErased());
        assertTrue(backAgain.attachments().isEmpty());

        Bytes<?> compacted = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeCompacted(Bytes.wrapForRead(after), 6, compacted), "its slots' zeros go");
        byte[] shortest = compacted.toByteArray();
        assertTrue(shortest.length < after.length);
        StatementsStored again = (StatementsStored) decoded(shortest, 6);
        assertArrayEquals(kept.json(), again.statements().get(2).json());
        assertArrayEquals(residue, again.statements().get(0).residue());
    }

    /** A retention period reads only the entries earlier erasures rewrote: the filter knows them by their type byte. */
    @Test
    void onlyEntriesAnErasureRewroteAreRewrittenByTheirTypeByte() {
        StoredStatement removed = statement(1, "ada@example.com");
        StoredStatement kept = statement(2, "bob's own");
        StatementsStored original = new StatementsStored(List.of(removed, kept), List.of(), false);
        byte[] ingested = encoded(original);
        assertFalse(EventCodec.isRewritten(ingested, ingested.length), "as an ingest wrote it");
        StatementsStored erased = new StatementsStored(List.of(StoredStatement.erased(removed.id(),
                removed.storedMillis()), kept), List.of(), false);
        Bytes<?> inSlots = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeInSlots(ingested, erased, inSlots));
        assertTrue(EventCodec.isRewritten(inSlots.toByteArray(), (int) inSlots.writePosition()), "type 6");
        Bytes<?> whole = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeRewritten(erased, (int) EventCodec.rewrittenLength(erased), whole));
        assertTrue(EventCodec.isRewritten(whole.toByteArray(), (int) whole.writePosition()), "type 5");
        assertFalse(EventCodec.isRewritten(whole.toByteArray(), EventCodec.TYPE_OFFSET), "too short to say");
    }

    @Test
    void anEmptyAttachmentContentDroppedSlotBySlotStaysDropped() {
        StoredStatement s = statement(1, "a@b.c");
        AttachmentContent empty = new AttachmentContent("e3b0", "text/plain", new byte[0]);
        byte[] before = encoded(new StatementsStored(List.of(s), List.of(empty), true));
        Bytes<?> out = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeInSlots(before, new StatementsStored(List.of(s), List.of(), true), out));
        assertTrue(((StatementsStored) decoded(out.toByteArray(), 1)).attachments().isEmpty());
        Bytes<?> again = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeInSlots(out.toByteArray(), new StatementsStored(List.of(s), List.of(), true), again));
        assertTrue(((StatementsStored) decoded(again.toByteArray(), 1)).attachments().isEmpty());
    }

    @Test
    void aReplacementLongerThanItsSlotDoesNotFitSlotBySlot() {
        StoredStatement s = statement(1, "a@b.c");
        StatementsStored original = new StatementsStored(List.of(s));
        StoredStatement longer = new StoredStatement(s.id(), s.storedMillis(), Arrays.copyOf(s.json(),
                s.json().length + 1));
        assertFalse(EventCodec.encodeInSlots(encoded(original), new StatementsStored(List.of(longer)),
                Bytes.allocateElasticOnHeap()));
        StatementsStored erased = new StatementsStored(List.of(StoredStatement.erased(s.id(), s.storedMillis())));
        Bytes<?> out = Bytes.allocateElasticOnHeap();
        assertTrue(EventCodec.encodeInSlots(encoded(original), erased, out));
        assertEquals(EventCodec.TYPE_STATEMENTS_IN_SLOTS, out.toByteArray()[5]);
        assertTrue(((StatementsStored) decoded(out.toByteArray(), 1)).statements().get(0).isErased());
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void anUnknownFormatIsRejectedWithTheIndex() {
        byte[] data = encoded(new StatementsStored(List.of(new StoredStatement(ID, 42, JSON))));
        data[0] = 9;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> decoded(data, 0x1234));
        assertTrue(e.getMessage().contains("1234"), e.getMessage());
        assertTrue(e.getMessage().contains("format 9"), e.getMessage());
    }

    private static byte[] typeOneEntry() {
        ByteBuffer b = ByteBuffer.allocate(6 + 28 + JSON.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 1).put((byte) 1).putInt(1);
        b.putLong(ID.getMostSignificantBits()).putLong(ID.getLeastSignificantBits()).putLong(42).putInt(JSON.length)
                .put(JSON);
        return b.array();
    }

    static byte[] encoded(Event event) {
        Bytes<?> out = Bytes.allocateElasticOnHeap();
        EventCodec.encode(event, out);
        return out.toByteArray();
    }

    static Event decoded(byte[] data, long index) {
        return EventCodec.decode(Bytes.wrapForRead(data), index);
    }
}
