package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parser finds each kept top-level member's bytes from Jackson's token offsets: the member runs from its
 * name's opening quote to the end of its value, whatever whitespace and escapes the client used around it.
 */
class MemberOffsetsTest {
    static final String ACTOR = "\"actor\"\t:\n{\"mbox\":\"mailto:a@example.com\"}";
    static final String VERB = "\"\\u0076erb\" : {\"id\":\"http://example.com/v\"}";
    static final String OBJECT = "\"object\":{\"id\":\"http://example.com/a\",\"definition\":{\"extensions\":"
            + "{\"http://example.com/q\":\"\\\"\\\\\"}}}";
    static final String STORED = "\"stored\" : \"2026-01-02T03:04:05.678Z\"";

    static String members(byte[] body, ParsedStatement parsed) {
        StringBuilder b = new StringBuilder();
        int[] m = parsed.members();
        for (int i = 0; i < m.length; i += 2) {
            b.append(i == 0 ? "" : "|").append(new String(body, m[i], m[i + 1] - m[i], StandardCharsets.UTF_8));
        }
        return b.toString();
    }

    @Test
    void membersAreTheClientsBytesFromNameToValue() {
        byte[] body = ("{ " + ACTOR + " ,\n " + STORED + ",\r\n" + VERB + ", " + OBJECT + " \n}")
                .getBytes(StandardCharsets.UTF_8);
        ParsedStatement parsed = StatementParser.parseOne(body, XapiVersion.V2_0_0);
        assertEquals(ACTOR + "|" + VERB + "|" + OBJECT, members(body, parsed));
        RoundTrip.check(parsed, XapiVersion.V2_0_0);
    }

    @Test
    void aDroppedLastMemberEndsTheKeptOneBeforeItsComma() {
        byte[] body = ("{" + OBJECT + "," + VERB + "," + ACTOR + " , " + STORED + "}").getBytes(StandardCharsets.UTF_8);
        ParsedStatement parsed = StatementParser.parseOne(body, XapiVersion.V2_0_0);
        assertEquals(OBJECT + "|" + VERB + "|" + ACTOR, members(body, parsed));
    }

    @Test
    void eachStatementOfABatchHasItsOwnOffsets() {
        String one = "{" + ACTOR + "," + VERB + "," + OBJECT + "}";
        byte[] body = ("[" + one + " , " + one + "]").getBytes(StandardCharsets.UTF_8);
        List<ParsedStatement> batch = StatementParser.parseBatch(body, XapiVersion.V2_0_0);
        assertEquals(2, batch.size());
        for (ParsedStatement parsed : batch) {
            assertEquals(ACTOR + "|" + VERB + "|" + OBJECT, members(body, parsed));
        }
        assertArrayEquals(new int[] {2, 2 + ACTOR.length()}, java.util.Arrays.copyOf(batch.get(0).members(), 2));
    }
}
