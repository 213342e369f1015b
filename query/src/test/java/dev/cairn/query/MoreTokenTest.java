package dev.cairn.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.XapiException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The more token: what Cairn encodes decodes to the same query, and a cursor is read as every integer is. A token
 * holds no server state, so it has no expiry: what it cannot be is garbage, or bytes altered so that they no
 * longer read as a query and a cursor.
 */
class MoreTokenTest {

    private static String token(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aTokenDecodesToItsParametersAndCursor() {
        Map<String, Deque<String>> params = new TreeMap<>(Map.of("limit", new ArrayDeque<>(List.of("5")),
                "verb", new ArrayDeque<>(List.of("http://example.com/v?a=b&c"))));
        MoreToken decoded = MoreToken.decode(new MoreToken(params, 42).encode());
        assertEquals(42, decoded.cursor());
        assertEquals(List.of("http://example.com/v?a=b&c"), List.copyOf(decoded.params().get("verb")));
        assertEquals(List.of("5"), List.copyOf(decoded.params().get("limit")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"%2B5", "-5", "0", "%D9%A3", "%EF%BC%95", "5%20", "", "99999999999999999999x"})
    void aCursorThatIsNotAPositiveIntegerInAsciiDigitsIsRefused(String cursor) {
        XapiException e = assertThrows(XapiException.class, () -> MoreToken.decode(token("limit=5&%00cursor=" + cursor)));
        assertEquals("more.invalid", e.code());
    }

    @Test
    void everyValueOfARepeatedParameterAndEveryCharacterSurvivesTheRoundTrip() {
        Map<String, Deque<String>> params = new TreeMap<>(Map.of("agent", new ArrayDeque<>(List.of(
                "{\"mbox\":\"mailto:\u00e9@example.com\"}", "a=b&c=%41 +")), "ascending", new ArrayDeque<>(List.of("true"))));
        MoreToken decoded = MoreToken.decode(new MoreToken(params, 7).encode());
        assertEquals(List.of("{\"mbox\":\"mailto:\u00e9@example.com\"}", "a=b&c=%41 +"), List.copyOf(decoded.params().get("agent")));
        assertEquals(List.of("true"), List.copyOf(decoded.params().get("ascending")));
        assertEquals(2, decoded.params().size());
    }

    @Test
    void theSameQueryAndCursorGiveTheSameTokenWhateverTheParameterOrder() {
        Map<String, Deque<String>> a = new java.util.LinkedHashMap<>();
        a.put("verb", new ArrayDeque<>(List.of("http://example.com/v")));
        a.put("limit", new ArrayDeque<>(List.of("5")));
        Map<String, Deque<String>> b = new java.util.LinkedHashMap<>();
        b.put("limit", new ArrayDeque<>(List.of("5")));
        b.put("verb", new ArrayDeque<>(List.of("http://example.com/v")));
        assertEquals(new MoreToken(a, 9).encode(), new MoreToken(b, 9).encode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "!!!!", "a", "not base64 at all", "AAAA"})
    void garbageIsRefusedAsALinkCairnDidNotIssue(String token) {
        XapiException e = assertThrows(XapiException.class, () -> MoreToken.decode(token));
        assertEquals("more.invalid", e.code());
        assertEquals("path", e.where());
    }

    @ParameterizedTest
    @ValueSource(strings = {"limit=5", "limit=5&%00cursor", "limit=%ZZ&%00cursor=5", "limit=5&%00cursor=5&%00cursor=x"})
    void aTokenAlteredSoThatItsQueryOrCursorNoLongerReadsIsRefused(String text) {
        assertEquals("more.invalid", assertThrows(XapiException.class, () -> MoreToken.decode(token(text))).code());
    }

    @Test
    void aTokenWithOneCharacterChangedIsRefusedOrReadsAsAnotherWellFormedQuery() {
        String issued = new MoreToken(new TreeMap<>(Map.of("limit", new ArrayDeque<>(List.of("5")))), 42).encode();
        for (int i = 0; i < issued.length(); i++) {
            char[] c = issued.toCharArray();
            c[i] = c[i] == 'A' ? 'B' : 'A';
            try {
                MoreToken altered = MoreToken.decode(new String(c));
                assertTrue(altered.cursor() > 0, "a cursor read from an altered token is still positive");
            } catch (XapiException e) {
                assertEquals("more.invalid", e.code());
            }
        }
    }
}
