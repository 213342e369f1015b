package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** IRIs (Data 4.2): which values are absolute or mailto IRIs, and the normal form two IRIs are compared in. */
class IrisTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com/a", "https://example.com/a?b=c#d", "urn:uuid:1", "mailto:a@b.c",
            "tag:example.com,2005:x", "http://example.com/\u00e9", "HTTP://EXAMPLE.COM", "x-y+z.1:a"})
    void iris(String iri) {
        assertTrue(Iris.isAbsolute(iri), iri);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "example.com/a", "www.example.com", ":a", "1http://a", "http:", "http://a b",
            "http://a<b>", "ht tp://a", "http://a\tb", "\u00e9:x"})
    void notIris(String iri) {
        assertFalse(Iris.isAbsolute(iri), iri);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mailto:xapi@adlnet.gov", "mailto:first.last+tag@sub.example.co.uk", "mailto:a@b"})
    void mailtos(String mbox) {
        assertTrue(Iris.isMailto(mbox), mbox);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "xapi@adlnet.gov", "mailto:", "mailto:@adlnet.gov", "mailto:xapi@", "mailto:xapi",
            "mailto:a@b@c", "mailto:a b@c.d", "MAILTO:a@b.c", "mailto:<a@b.c>", "mailto:a@.b", "mailto:a@b."})
    void notMailtos(String mbox) {
        assertFalse(Iris.isMailto(mbox), mbox);
    }

    static Stream<Arguments> iris() {
        return Stream.of(
                Arguments.of("http://example.com/a", "http://example.com/a"),
                Arguments.of("HTTP://Example.COM/A", "http://example.com/A"),
                Arguments.of("http://example.com/path/../slug", "http://example.com/slug"),
                Arguments.of("http://example.com/a/./b/../c", "http://example.com/a/c"),
                Arguments.of("http://example.com/%7euser/%2fx%3a", "http://example.com/~user/%2Fx%3A"),
                Arguments.of("http://User@Example.com:8080/p?Q=%7e#F", "http://User@example.com:8080/p?Q=~#F"),
                Arguments.of("mailto:Learner@EXAMPLE.com", "mailto:Learner@example.com"),
                Arguments.of("urn:ISBN:0-395-36341-1", "urn:ISBN:0-395-36341-1"),
                Arguments.of("http://example.com/caf\u0065\u0301", "http://example.com/caf\u00e9"));
    }

    @ParameterizedTest(name = "{0} normalizes to {1}")
    @MethodSource("iris")
    void irisNormalizeBySyntax(String iri, String normal) {
        assertEquals(normal, Iris.normalize(iri));
    }
}
