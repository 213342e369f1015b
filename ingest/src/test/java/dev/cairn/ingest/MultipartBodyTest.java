package dev.cairn.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.xapi.XapiException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A multipart/mixed statement body split into its parts (RFC 2046 5.1, Comm 1.5.2). */
class MultipartBodyTest {
    private static List<MultipartBody.Part> parse(String body) {
        return MultipartBody.parse(body.getBytes(StandardCharsets.UTF_8), "b");
    }

    private static String text(MultipartBody.Part p) {
        return new String(p.content(), StandardCharsets.UTF_8);
    }

    private static XapiException refused(String body) {
        return assertThrows(XapiException.class, () -> parse(body));
    }

    @Test
    void eachPartHasItsHeadersWithLowercaseNamesAndItsContent() {
        List<MultipartBody.Part> parts = parse("--b\r\nContent-Type: application/json\r\n\r\n[]\r\n"
                + "--b\r\nContent-Type: text/plain\r\nX-Experience-API-Hash: abc\r\n\r\nhello\r\n--b--\r\n");
        assertEquals(2, parts.size());
        assertEquals(Map.of("content-type", "application/json"), parts.get(0).headers());
        assertEquals("[]", text(parts.get(0)));
        assertEquals("abc", parts.get(1).header("x-experience-api-hash"));
        assertEquals("hello", text(parts.get(1)));
    }

    @Test
    void aPreambleAndAnEpilogueAreIgnored() {
        List<MultipartBody.Part> parts = parse("this is a preamble\r\n--b\r\nA: 1\r\n\r\nx\r\n--b--\r\nepilogue");
        assertEquals(1, parts.size());
        assertEquals("x", text(parts.get(0)));
    }

    @Test
    void aPartWithoutHeadersHasOnlyContent() {
        MultipartBody.Part p = parse("--b\r\n\r\nx\r\n--b--").get(0);
        assertEquals(Map.of(), p.headers());
        assertEquals("x", text(p));
    }

    @Test
    void whitespaceAfterADelimiterIsTransportPadding() {
        assertEquals("x", text(parse("--b \t\r\nA: 1\r\n\r\nx\r\n--b--").get(0)));
    }

    @Test
    void theBoundaryInsideALineIsContent() {
        assertEquals("a--b c", text(parse("--b\r\nA: 1\r\n\r\na--b c\r\n--b--").get(0)));
    }

    @Test
    void aBodyWithoutTheBoundaryIs400() {
        XapiException e = refused("--other\r\n\r\nx\r\n--other--");
        assertEquals("multipart.malformed", e.code());
        assertEquals("body", e.where());
    }

    @Test
    void aBodyWithoutItsCloseDelimiterIs400NamingThePart() {
        XapiException e = refused("--b\r\nA: 1\r\n\r\nx");
        assertEquals("multipart.malformed", e.code());
        assertEquals("body part 1", e.where());
    }

    @Test
    void headersThatDoNotEndWithAnEmptyLineAre400() {
        assertEquals("body part 1", refused("--b\r\nA: 1\r\n--b--").where());
    }

    @Test
    void aHeaderLineWithoutANameIs400NamingThePart() {
        assertEquals("body part 2", refused("--b\r\nA: 1\r\n\r\nx\r\n--b\r\n: no name\r\n\r\ny\r\n--b--").where());
    }

    @Test
    void aDelimiterLineThatDoesNotEndWithCrLfIs400() {
        assertEquals("multipart.malformed", refused("--bx\r\nA: 1\r\n\r\nx\r\n--b--").code());
    }

    @ParameterizedTest
    @ValueSource(strings = {"multipart/mixed; boundary=abc", "multipart/mixed;boundary=\"abc\"",
            "multipart/mixed; charset=x; BOUNDARY=abc"})
    void theBoundaryIsTheParameterUnquoted(String contentType) {
        assertEquals("abc", MultipartBody.boundary(contentType));
    }

    @ParameterizedTest
    @ValueSource(strings = {"multipart/mixed", "multipart/mixed; boundary=", "multipart/mixed; boundary=\"\""})
    void aMissingOrEmptyBoundaryIs400(String contentType) {
        XapiException e = assertThrows(XapiException.class, () -> MultipartBody.boundary(contentType));
        assertEquals("multipart.boundary", e.code());
        assertEquals("header Content-Type", e.where());
    }

    @Test
    void aBoundaryLongerThan70CharactersIs400() {
        assertEquals("abc".repeat(23) + "a", MultipartBody.boundary("multipart/mixed; boundary=" + "abc".repeat(23) + "a"));
        assertThrows(XapiException.class, () -> MultipartBody.boundary("multipart/mixed; boundary=" + "x".repeat(71)));
    }
}
