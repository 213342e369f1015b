package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The structure check's syntax scanner must refuse exactly what Jackson refuses: were it stricter, a file Jackson
 * accepts would fail part-way; were it laxer, a malformed file would be half-imported.
 */
class JsonObjectSyntaxTest {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String STATEMENT = """
            {"id":"fd41c918-b88b-4b20-a0a5-a4c32391aaa0","actor":{"objectType":"Agent","name":"Zoë \\"Z\\" Ünal",
             "mbox":"mailto:zoe@example.com"},"verb":{"id":"http://adlnet.gov/expapi/verbs/completed",
             "display":{"en-US":"completed","ja":"完了しました"}},"object":{"id":"http://example.com/a?b=1&c=\\u00e9",
             "definition":{"name":{"en":"Lesson 7 \\ud83d\\ude00"},"extensions":{"http://x/e":[1,-2.5,3e10,0.1E-3,
             true,false,null,[],{},"\\/\\b\\f\\n\\r\\t\\\\"]}}},"result":{"score":{"scaled":0.95,"raw":-0},
             "success":true,"duration":"PT1H"},"context":{"contextActivities":{"parent":[{"id":"http://p"}]}},
             "timestamp":"2026-11-29T12:00:00.000Z","é":"😀"}""";

    /** Valid objects end right after their closing brace, whatever follows. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {}                                 | 2
            {} {}                              | 2
            { "a" : [ 1 , 2 ] }                | 19
            {"a":{"b":{"c":[[],[{}]]}}}x       | 27
            {"n":-0.5e+7}                      | 13
            {"s":"\\u12aF\\n"}                 | 16
            """)
    void aWellFormedObjectEndsAfterItsBrace(String json, int end) {
        assertEquals(end, scan(json));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            [1]
            {"a":}
            {"a" 1}
            {a:1}
            {"a":1,}
            {"a":[1,]}
            {"a":01}
            {"a":1.}
            {"a":.5}
            {"a":1e}
            {"a":-}
            {"a":+1}
            {"a":tru}
            {"a":nul1}
            {"a":"\\x"}
            {"a":"\\u12g4"}
            {"a":[}
            {"a":{]}
            {"a":1]
            {"a":'b'}
            """)
    void aMalformedObjectIsRefused(String json) {
        assertEquals(JsonObjectSyntax.MALFORMED, scan(json));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {
            {"a"
            {"a":[1,2
            {"a":12
            {"a":"text
            {"a":"\\u12
            {"a":tr
            """)
    void anObjectCutShortIsIncomplete(String json) {
        assertEquals(JsonObjectSyntax.INCOMPLETE, scan(json));
    }

    @Test
    void rawControlCharactersAndIllFormedUtf8InStringsAreRefused() {
        for (byte[] bad : new byte[][] {{'\t'}, {0x1F}, {(byte) 0x80}, {(byte) 0xC3, 'x'}, {(byte) 0xE2, (byte) 0x82, 'x'},
                {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}}) {
            byte[] json = concat("{\"a\":\"".getBytes(StandardCharsets.UTF_8), bad, "\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals(JsonObjectSyntax.MALFORMED, new JsonObjectSyntax().end(json, 0, json.length));
        }
    }

    @Test
    void aStatementMutatedAtRandomIsJudgedAsJacksonJudgesIt() throws IOException {
        byte[] base = STATEMENT.getBytes(StandardCharsets.UTF_8);
        byte[] alphabet = "{}[]\":,\\/ \n0123456789eE+-.tfnrualsx".getBytes(StandardCharsets.US_ASCII);
        byte[] odd = {0x00, 0x1F, 0x7F, (byte) 0x80, (byte) 0x8F, (byte) 0x90, (byte) 0x9F, (byte) 0xA0, (byte) 0xBF,
                (byte) 0xC0, (byte) 0xC1, (byte) 0xC3, (byte) 0xE0, (byte) 0xE2, (byte) 0xED, (byte) 0xF0, (byte) 0xF4,
                (byte) 0xF5, (byte) 0xF8, (byte) 0xFF};
        Random random = new Random(20261129);
        JsonObjectSyntax syntax = new JsonObjectSyntax();
        int accepted = 0;
        for (int n = 0; n < 100_000; n++) {
            byte[] b = base.clone();
            for (int m = 1 + random.nextInt(3); m > 0; m--) {
                byte with = random.nextInt(5) == 0 ? odd[random.nextInt(odd.length)] : alphabet[random.nextInt(alphabet.length)];
                int at = random.nextInt(b.length);
                b = switch (random.nextInt(3)) {
                    case 0 -> replace(b, at, with);
                    case 1 -> concat(slice(b, 0, at), new byte[] {with}, slice(b, at, b.length));
                    default -> concat(slice(b, 0, at), slice(b, at + 1, b.length));
                };
            }
            byte[] mutated = b;
            int jackson = jacksonEnd(mutated);
            int scanned = syntax.end(mutated, 0, mutated.length);
            assertEquals(jackson >= 0 ? jackson : "refused", scanned >= 0 ? scanned : "refused",
                    () -> java.util.HexFormat.of().formatHex(mutated));
            accepted += jackson >= 0 ? 1 : 0;
        }
        // The mutations must exercise both verdicts for the comparison to mean anything.
        assertEquals(true, accepted > 2_000 && accepted < 98_000, "accepted " + accepted);
    }

    @Test
    void nestingIsRefusedWhereJacksonRefusesItAndNoDeeper() throws IOException {
        for (int depth : new int[] {JsonObjectSyntax.MAX_DEPTH - 1, JsonObjectSyntax.MAX_DEPTH,
                JsonObjectSyntax.MAX_DEPTH + 1, 1 << 20}) {
            int arrays = depth - 1; // the object itself is one level
            byte[] b = ("{\"a\":" + "[".repeat(arrays) + "]".repeat(arrays) + "}").getBytes(StandardCharsets.UTF_8);
            JsonObjectSyntax syntax = new JsonObjectSyntax();
            boolean jacksonTakesIt;
            try (JsonParser p = JSON.createParser(b)) {
                p.nextToken();
                p.skipChildren();
                jacksonTakesIt = true;
            } catch (IOException | RuntimeException e) { // Jackson's StreamConstraintsException
                jacksonTakesIt = false;
            }
            int end = syntax.end(b, 0, b.length);
            assertEquals(jacksonTakesIt ? b.length : JsonObjectSyntax.MALFORMED, end, "depth " + depth);
            if (jacksonTakesIt) { // and it finds the depth: a check one level shallower refuses the object
                assertEquals(JsonObjectSyntax.MALFORMED, new JsonObjectSyntax(depth - 1).end(b, 0, b.length));
            }
        }
    }

    @Test
    void everyPrefixOfAStatementIsIncomplete() {
        byte[] b = STATEMENT.getBytes(StandardCharsets.UTF_8);
        JsonObjectSyntax syntax = new JsonObjectSyntax();
        for (int limit = 0; limit < b.length; limit++) {
            assertEquals(JsonObjectSyntax.INCOMPLETE, syntax.end(b, 0, limit), "prefix of " + limit + " bytes");
        }
        assertEquals(b.length, syntax.end(b, 0, b.length));
    }

    /** Where Jackson's default parser finds the end of the object at {@code b[0]}, or -1 if it refuses. */
    private static int jacksonEnd(byte[] b) throws IOException {
        try (JsonParser p = JSON.createParser(b)) {
            if (p.nextToken() != JsonToken.START_OBJECT || p.currentTokenLocation().getByteOffset() != 0) {
                return -1; // the scanner's callers skip what precedes an object
            }
            p.skipChildren();
            return (int) p.currentTokenLocation().getByteOffset() + 1;
        } catch (JsonParseException e) {
            return -1;
        }
    }

    private static int scan(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return new JsonObjectSyntax().end(b, 0, b.length);
    }

    private static byte[] replace(byte[] b, int at, byte with) {
        b[at] = with;
        return b;
    }

    private static byte[] slice(byte[] b, int from, int to) {
        return java.util.Arrays.copyOfRange(b, from, to);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
