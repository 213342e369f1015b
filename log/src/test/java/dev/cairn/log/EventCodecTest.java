package dev.cairn.log;

import net.openhft.chronicle.bytes.Bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import dev.cairn.xapi.DocumentKey;
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
        assertEquals(EventCodec.TYPE_STATEMENTS_WITH_ATTACHMENTS, encoded[1]);

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
        assertEquals(EventCodec.TYPE_STATEMENTS_STORED | EventCodec.FLAG_NO_DEFINE, encoded[1]);
        StatementsStored out = (StatementsStored) decoded(encoded, 3);
        assertFalse(out.defines());
        assertArrayEquals(JSON, out.statements().get(0).json());
        assertTrue(((StatementsStored) decoded(typeOneEntry(), 1)).defines(), "entries without the flag may define");
    }

    @Test
    void statementsWithoutAttachmentsKeepTheFirstLayout() {
        byte[] encoded = encoded(new StatementsStored(List.of(new StoredStatement(ID, 42, JSON))));
        assertArrayEquals(typeOneEntry(), encoded);
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
