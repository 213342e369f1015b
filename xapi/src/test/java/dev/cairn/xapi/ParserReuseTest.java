package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each thread reads one body after another with the same Jackson parser. Whatever came before — a rejected
 * body, a truncated one, trailing content, a body larger than the parser's buffer, a new parser after many bodies —
 * the next body reads as it would on a fresh parser: same members, same error positions.
 */
class ParserReuseTest {
    static final String STATEMENT = "{" + MemberOffsetsTest.ACTOR + "," + MemberOffsetsTest.VERB + ","
            + MemberOffsetsTest.OBJECT + "}";
    static final String MEMBERS = MemberOffsetsTest.ACTOR + "|" + MemberOffsetsTest.VERB + "|"
            + MemberOffsetsTest.OBJECT;

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void readsLikeAFreshParser() {
        byte[] body = bytes(STATEMENT + "\n");
        assertEquals(MEMBERS, MemberOffsetsTest.members(body, StatementParser.parseOne(body, XapiVersion.V2_0_0)));
    }

    static XapiException rejected(String body) {
        return assertThrows(XapiException.class, () -> StatementParser.parseOne(bytes(body), XapiVersion.V2_0_0));
    }

    @Test
    void contentAfterTheStatementIsRejectedWithItsPosition() {
        readsLikeAFreshParser();
        XapiException e = rejected(STATEMENT + "\n x");
        assertEquals("json.trailing", e.code());
        assertEquals("unexpected content after the end of the JSON value (line 3, column 2)", e.getMessage());
        readsLikeAFreshParser();
        assertEquals("json.trailing", rejected(STATEMENT + STATEMENT).code());
        readsLikeAFreshParser();
    }

    @Test
    void aTruncatedBodyLeavesNothingBehind() {
        readsLikeAFreshParser();
        XapiException e = rejected(STATEMENT.substring(0, 40));
        assertEquals("json.malformed", e.code());
        readsLikeAFreshParser();
    }

    @Test
    void malformedJsonIsPlacedWithinItsOwnBody() {
        readsLikeAFreshParser();
        readsLikeAFreshParser();
        XapiException e = rejected("{\n  \"actor\": {\"mbox\" \"mailto:a@example.com\"}}");
        assertEquals("json.malformed", e.code());
        assertEquals(true, e.getMessage().endsWith("(line 2, column 20)"), e.getMessage());
        readsLikeAFreshParser();
    }

    @Test
    void duplicatesArePlacedWithinTheirOwnBody() {
        readsLikeAFreshParser();
        XapiException e = rejected("{\n" + MemberOffsetsTest.ACTOR + ",\n" + MemberOffsetsTest.ACTOR + "}");
        assertEquals("property.duplicate", e.code());
        assertEquals(true, e.getMessage().endsWith("(line 4, column 1)"), e.getMessage());
        readsLikeAFreshParser();
    }

    @Test
    void aBodyLargerThanTheParsersBufferIsReadWhole() {
        String pad = " ".repeat(20_000);
        String big = "{" + MemberOffsetsTest.ACTOR + "," + pad + MemberOffsetsTest.VERB + "," + MemberOffsetsTest.OBJECT
                + "}" + pad;
        readsLikeAFreshParser();
        byte[] body = bytes(big);
        assertEquals(MEMBERS, MemberOffsetsTest.members(body, StatementParser.parseOne(body, XapiVersion.V2_0_0)));
        readsLikeAFreshParser();
    }

    @Test
    void aByteOrderMarkIsReadAndOtherEncodingsAreRejected() {
        readsLikeAFreshParser();
        byte[] plain = bytes(STATEMENT);
        byte[] withMark = new byte[plain.length + 3];
        withMark[0] = (byte) 0xEF;
        withMark[1] = (byte) 0xBB;
        withMark[2] = (byte) 0xBF;
        System.arraycopy(plain, 0, withMark, 3, plain.length);
        StatementParser.parseOne(withMark, XapiVersion.V2_0_0);
        readsLikeAFreshParser();
        for (var charset : List.of(StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE, StandardCharsets.UTF_16)) {
            XapiException e = assertThrows(XapiException.class,
                    () -> StatementParser.parseOne(STATEMENT.getBytes(charset), XapiVersion.V2_0_0));
            assertEquals("json.encoding", e.code());
            readsLikeAFreshParser();
        }
    }

    @Test
    void aNewParserTakesOverAfterManyBodies() {
        for (int i = 0; i < 2 * DocumentStream.DOCUMENTS_PER_PARSER + 3; i++) {
            readsLikeAFreshParser();
        }
    }

    @Test
    void batchesAgentsAndDefinitionsShareTheParser() {
        byte[] batch = bytes("[" + STATEMENT + "," + STATEMENT + "]");
        assertEquals(2, StatementParser.parseBatch(batch, XapiVersion.V2_0_0).size());
        readsLikeAFreshParser();
        StatementParser.parseActor(bytes("{\"mbox\":\"mailto:a@example.com\"}"), XapiVersion.V2_0_0, "agent");
        readsLikeAFreshParser();
        StatementParser.parseActivityDefinition(bytes("{\"type\":\"http://example.com/t\"}"));
        readsLikeAFreshParser();
    }
}
