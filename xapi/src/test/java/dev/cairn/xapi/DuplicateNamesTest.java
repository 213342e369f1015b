package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A property name twice in one object is rejected (Data 2.2) at every depth, whether the parser's check finds
 * it by its hash bit, by the scan behind a shared bit, or in the hash set of an object with many names.
 */
class DuplicateNamesTest {
    static final String HEAD = "{\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"http://example.com/v\"},";

    static ParsedStatement parse(String json) {
        return StatementParser.parseOne(json.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0);
    }

    static XapiException rejected(String json) {
        return assertThrows(XapiException.class, () -> parse(json));
    }

    static String extensions(List<String> keys) {
        StringBuilder b = new StringBuilder(HEAD + "\"object\":{\"id\":\"http://example.com/a\",\"definition\":{\"extensions\":{");
        for (int i = 0; i < keys.size(); i++) {
            b.append(i == 0 ? "" : ",").append('"').append(keys.get(i)).append("\":").append(i);
        }
        return b.append("}}}}").toString();
    }

    /** Distinct extension keys whose hash codes share their low six bits. */
    static List<String> sameBit(int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) {
            String key = "http://example.com/k" + i;
            if ((key.hashCode() & 63) == 5) {
                keys.add(key);
            }
        }
        return keys;
    }

    @Test
    void nestedDuplicates() {
        XapiException e = rejected(HEAD.replace("\"id\":\"http://example.com/v\"",
                "\"id\":\"http://example.com/v\",\"id\":\"http://example.com/w\"") + "\"object\":{\"id\":\"http://example.com/a\"}}");
        assertEquals("property.duplicate", e.code());
        assertEquals("$.verb.id", e.where());
        e = rejected(HEAD + "\"object\":{\"id\":\"http://example.com/a\",\"definition\":{\"name\":{\"en\":\"a\",\"de\":\"b\",\"en\":\"c\"}}}}");
        assertEquals("$.object.definition.name.en", e.where());
        assertEquals("property.duplicate", e.code());
    }

    @Test
    void namesSharingAHashBitAreDistinctUnlessEqual() {
        List<String> keys = sameBit(3);
        assertEquals(3, parse(extensions(keys)).statement().object() instanceof Activity a
                ? a.definition().extensions().size() : -1);
        List<String> twice = new ArrayList<>(keys);
        twice.add(keys.get(1));
        XapiException e = rejected(extensions(twice));
        assertEquals("property.duplicate", e.code());
        assertEquals("$.object.definition.extensions." + keys.get(1), e.where());
    }

    @Test
    void manyNames() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add("http://example.com/k" + i);
        }
        assertEquals(40, ((Activity) parse(extensions(keys)).statement().object()).definition().extensions().size());
        keys.add("http://example.com/k3");
        assertEquals("property.duplicate", rejected(extensions(keys)).code());
    }
}
