package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Internet Media Types: which values are valid, what their essence is, and the values of their parameters. */
class MediaTypesTest {

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "text/plain; charset=ascii", "application/octet-stream",
            "image/svg+xml", "application/vnd.ms-excel", "multipart/mixed;boundary=abc"})
    void mediaTypes(String type) {
        assertTrue(MediaTypes.isValid(type), type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "text", "text/", "/plain", "plain text", "text/plain text", "text/pl(ain"})
    void notMediaTypes(String type) {
        assertFalse(MediaTypes.isValid(type), type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "application/json; charset=utf-8", " application/json ;charset=x",
            "\tapplication/json\t", "application/json;"})
    void theEssenceLeavesOutParametersAndTheWhitespaceAroundIt(String type) {
        assertTrue(MediaTypes.hasEssence(type, "application/json"), type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Application/JSON", "APPLICATION/JSON; charset=UTF-8"})
    void theEssenceIsComparedInAnyAsciiCase(String type) {
        assertTrue(MediaTypes.hasEssence(type, "application/json"), type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "application/jsonx", "application/json-patch+json", "text/json", "application",
            "application /json", "application/x-www-form-urlencoded"})
    void anotherEssenceDoesNotMatch(String type) {
        assertFalse(MediaTypes.hasEssence(type, "application/json"), type);
    }

    @Test
    void withoutAContentTypeThereIsNoEssence() {
        assertFalse(MediaTypes.hasEssence(null, "application/json"));
    }

    @Test
    void aParameterValueLosesItsWhitespaceAndOneLayerOfQuotes() {
        assertEquals(List.of("a b", "\"c\"", "d"),
                MediaTypes.parameterValues("multipart/mixed; x= \"a b\" ;x=\"\"c\"\";x=d", "x"));
    }

    @Test
    void aParameterNameMatchesInAnyCase() {
        assertEquals(List.of("abc"), MediaTypes.parameterValues("multipart/mixed; BOUNDARY=abc", "boundary"));
    }

    @Test
    void everyValueOfARepeatedParameterIsListedInOrder() {
        assertEquals(List.of("", "two"), MediaTypes.parameterValues("multipart/mixed;boundary=;boundary=two", "boundary"));
    }

    @Test
    void aParameterNameMustBeFollowedDirectlyByItsEqualsSign() {
        assertEquals(List.of(), MediaTypes.parameterValues("multipart/mixed; boundary =abc; boundaryx=d", "boundary"));
    }

    @Test
    void theEssenceIsNeverAParameter() {
        assertEquals(List.of(), MediaTypes.parameterValues("boundary=abc", "boundary"));
    }
}
