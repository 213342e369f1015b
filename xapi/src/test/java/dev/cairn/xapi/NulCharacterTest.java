package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A client's JSON may not carry U+0000 in any string (PostgreSQL cannot store it); Cairn's own stored JSON is read. */
class NulCharacterTest {
    /** JSON's escape of U+0000, spelled so that no Java Unicode escape is read here. */
    private static final String NUL = "\\" + "u0000";

    private static byte[] statement(String name, String extension) {
        return ("{\"actor\":{\"name\":\"" + name + "\",\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":"
                + "\"http://adlnet.gov/expapi/verbs/completed\"},\"object\":{\"id\":\"http://example.com/a\"},"
                + "\"result\":{\"extensions\":{\"http://example.com/x\":\"" + extension + "\"}}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aNulInANameIsRefusedWithWhereItStands() {
        XapiException e = assertThrows(XapiException.class,
                () -> StatementParser.parseOne(statement("A" + NUL, "x"), XapiVersion.V2_0_0));
        assertEquals("json.nul", e.code());
        assertTrue(e.getMessage().contains("line 1, column 20"), e.getMessage());
    }

    @Test
    void aNulAnywhereIsRefusedEvenInsideExtensionsTheGrammarDoesNotRead() {
        XapiException e = assertThrows(XapiException.class,
                () -> StatementParser.parseBatch(statement("A", "x" + NUL), XapiVersion.V1_0_3));
        assertEquals("json.nul", e.code());
    }

    @Test
    void anEscapedBackslashFollowedByTheTextU0000IsText() {
        ParsedStatement p = StatementParser.parseOne(statement("back\\\\" + "u0000", "x"), XapiVersion.V2_0_0);
        assertEquals("back\\" + "u0000", ((Agent) p.statement().actor()).name());
    }

    @Test
    void onlyTheEscapeOfU0000IsNulAndItIsFoundAfterOtherEscapes() {
        String u0001 = "\\" + "u0001";
        assertEquals(-1, JsonReader.nulEscape(("\"" + u0001 + "\"").getBytes(StandardCharsets.UTF_8)));
        assertEquals(7, JsonReader.nulEscape(("\"" + u0001 + NUL + "\"").getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The scan reads sixteen bytes at a time: wherever a word boundary falls (inside an escape, between a backslash and
     * what it escapes, in the last bytes of the body), it finds what a scan of one byte at a time finds.
     */
    @Test
    void theWordAtATimeScanFindsWhatAByteAtATimeScanFinds() {
        String[] pieces = {"\\", NUL, "u0000", "a", "0", "é"};
        SplittableRandom random = new SplittableRandom(19);
        int found = 0;
        for (int n = 0; n < 200_000; n++) {
            StringBuilder text = new StringBuilder();
            for (int pieceCount = random.nextInt(12); pieceCount > 0; pieceCount--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
            int expected = byteAtATime(body);
            assertEquals(expected, JsonReader.nulEscape(body), () -> new String(body, StandardCharsets.UTF_8));
            found += expected >= 0 ? 1 : 0;
        }
        assertTrue(found > 50_000, "the bodies hold escapes of NUL at " + found + " places only");
    }

    /** The definition: every backslash starts a two-character escape. */
    private static int byteAtATime(byte[] body) {
        for (int i = 0; i <= body.length - 6; i++) {
            if (body[i] == '\\') {
                if (body[i + 1] == 'u' && body[i + 2] == '0' && body[i + 3] == '0' && body[i + 4] == '0'
                        && body[i + 5] == '0') {
                    return i;
                }
                i++;
            }
        }
        return -1;
    }

    @Test
    void anAgentParameterWithANulIsRefused() {
        XapiException e = assertThrows(XapiException.class, () -> StatementParser.parseActor(
                ("{\"account\":{\"homePage\":\"http://example.com\",\"name\":\"a" + NUL + "\"}}")
                        .getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0, "parameter agent"));
        assertEquals("json.nul", e.code());
    }

    @Test
    void whatCairnStoredBeforeTheRuleIsStillRead() {
        byte[] stored = ("{\"id\":\"6690e6c9-3ef0-4ed3-8b37-7f3964730bee\",\"actor\":{\"name\":\"A" + NUL + "\","
                + "\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\"},"
                + "\"object\":{\"id\":\"http://example.com/a\"},\"stored\":\"2026-12-02T00:00:00.000Z\","
                + "\"timestamp\":\"2026-12-02T00:00:00.000Z\",\"authority\":{\"mbox\":\"mailto:auth@example.com\"},"
                + "\"version\":\"1.0.0\"}").getBytes(StandardCharsets.UTF_8);
        assertEquals("A\0", ((Agent) StatementParser.parseStored(stored).statement().actor()).name());
    }
}
