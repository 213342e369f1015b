package dev.cairn.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

/** The more token: what Cairn encodes decodes to the same query, and a cursor is read as every integer is. */
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
}
