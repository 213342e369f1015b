package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * Parse → {@link ExactWriter#write} → parse: the stored form holds every property the client sent byte for byte,
 * plus the ones the LRS sets (id and version when absent, stored, authority, timestamp when absent), and it parses
 * back to the same model.
 */
final class RoundTrip {
    static final UUID ASSIGNED_ID = UUID.fromString("00000000-0000-4000-8000-000000000001");
    static final String STORED = "2026-01-02T03:04:05.678Z";
    static final byte[] AUTHORITY = "{\"objectType\":\"Agent\",\"account\":{\"homePage\":\"https://lrs.example.com\",\"name\":\"key-1\"}}"
            .getBytes(StandardCharsets.UTF_8);

    private RoundTrip() {
    }

    static void check(byte[] body, XapiVersion version) {
        List<ParsedStatement> batch = StatementParser.parseBatch(body, version);
        for (ParsedStatement parsed : batch) {
            check(parsed, version);
        }
    }

    static void check(ParsedStatement parsed, XapiVersion version) {
        Statement in = parsed.statement();
        byte[] written = ExactWriter.write(parsed, ASSIGNED_ID, STORED, AUTHORITY, version.header());
        String text = new String(written, StandardCharsets.UTF_8);

        int[] members = parsed.members();
        for (int i = 0; i < members.length; i += 2) {
            String member = wrapped(parsed, members[i], members[i + 1]);
            assertTrue(text.contains(member), () -> "the stored form lost the client's bytes " + member + "\n" + text);
        }

        ParsedStatement again = StatementParser.parseOne(written, version);
        Statement out = again.statement();
        Actor authority = StatementParser.parseActor(AUTHORITY, version, "authority");
        Statement expected = new Statement(in.id() != null ? in.id() : ASSIGNED_ID, in.actor(), in.verb(), in.object(),
                in.result(), in.context(), in.timestamp() != null ? in.timestamp() : STORED, STORED, authority,
                in.version() != null ? in.version() : version.header(), in.attachments());
        assertEquals(expected, out, text);
    }

    /** The client's bytes of one member with the brackets the stored form adds around single context activities. */
    static String wrapped(ParsedStatement parsed, int from, int to) {
        StringBuilder b = new StringBuilder();
        int at = from;
        int[] wraps = parsed.wraps();
        for (int w = 0; w < wraps.length; w++) {
            if (wraps[w] >= from && wraps[w] <= to) {
                b.append(new String(parsed.source(), at, wraps[w] - at, StandardCharsets.UTF_8)).append(w % 2 == 0 ? '[' : ']');
                at = wraps[w];
            }
        }
        return b.append(new String(parsed.source(), at, to - at, StandardCharsets.UTF_8)).toString();
    }
}
