package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one check of query parameters: known names only, spelled exactly, each at most once (Comm 2.1.3); shared values. */
class QueryParametersTest {
    private static final List<String> KNOWN = List.of("activityId", "agent");

    private static Map<String, Deque<String>> params(String name, String... values) {
        return Map.of(name, new ArrayDeque<>(List.of(values)));
    }

    private static XapiException refused(Map<String, Deque<String>> params, List<String> known) {
        return assertThrows(XapiException.class, () -> QueryParameters.check(params, known, "GET /things"));
    }

    @Test
    void aNameTheResourceDoesNotTakeIs400UnknownListingTheNamesItTakes() {
        XapiException e = refused(params("verb", "x"), KNOWN);
        assertEquals("parameter.unknown", e.code());
        assertEquals("parameter verb", e.where());
        assertTrue(e.getMessage().contains("GET /things; it takes activityId, agent"), e.getMessage());
    }

    @Test
    void aNameThatDiffersOnlyInCaseIs400CaseNamingTheSpelling() {
        XapiException e = refused(params("activityid", "x"), KNOWN);
        assertEquals("parameter.case", e.code());
        assertTrue(e.getMessage().contains("must be spelled 'activityId'"), e.getMessage());
    }

    @Test
    void aParameterGivenTwiceIs400Repeated() {
        XapiException e = refused(params("agent", "a", "b"), KNOWN);
        assertEquals("parameter.repeated", e.code());
        assertEquals("parameter agent", e.where());
    }

    @Test
    void aValueHoldingTheNulCharacterIs400InvalidNamingTheParameter() {
        XapiException e = refused(params("agent", "a\0b"), KNOWN);
        assertEquals("parameter.invalid", e.code());
        assertEquals("parameter agent", e.where());
        assertTrue(e.getMessage().contains("NUL"), e.getMessage());
    }

    @Test
    void aResourceThatTakesNoParametersRefusesAny() {
        XapiException e = refused(params("limit", "1"), List.of());
        assertEquals("parameter.unknown", e.code());
        assertTrue(e.getMessage().endsWith("which takes none"), e.getMessage());
    }

    @Test
    void aMissingRequiredParameterIs400MissingAndAnAbsentOptionalOneIsNull() {
        XapiException e = assertThrows(XapiException.class, () -> QueryParameters.required(Map.of(), "agent"));
        assertEquals("parameter.missing", e.code());
        assertEquals("parameter agent", e.where());
        assertNull(QueryParameters.one(Map.of(), "agent"));
        assertEquals("x", QueryParameters.required(params("agent", "x"), "agent"));
    }

    @Test
    void anIriValueMustBeAbsolute() {
        assertEquals("http://example.com/a", QueryParameters.iri("http://example.com/a", "activityId"));
        XapiException e = assertThrows(XapiException.class, () -> QueryParameters.iri("a", "activityId"));
        assertEquals("parameter.invalid", e.code());
        assertEquals("parameter activityId", e.where());
    }

    @Test
    void anAgentValueMustHaveAnIdentifier() {
        assertEquals("mbox:mailto:a@example.com", QueryParameters.agent("{\"mbox\":\"mailto:a@example.com\"}",
                XapiVersion.V2_0_0).ifi().key());
        XapiException e = assertThrows(XapiException.class, () -> QueryParameters.agent(
                "{\"objectType\":\"Group\",\"member\":[{\"mbox\":\"mailto:a@example.com\"}]}", XapiVersion.V2_0_0));
        assertEquals("parameter agent", e.where());
        assertEquals("parameter.invalid", e.code());
    }

    @Test
    void aQueryStringReadsAsTheServerReadsOnePercentAndPlusDecodedRepeatsKept() {
        Map<String, Deque<String>> p = QueryParameters.parse("verb=http%3A%2F%2Fexample.com%2Fv&agent=%7B%22a%22%7D"
                + "&note=two+words&note=again&flag");
        assertEquals("http://example.com/v", QueryParameters.one(p, "verb"));
        assertEquals("{\"a\"}", QueryParameters.one(p, "agent"));
        assertEquals(List.of("two words", "again"), List.copyOf(p.get("note")));
        assertEquals("", QueryParameters.one(p, "flag"));
        assertTrue(QueryParameters.parse("").isEmpty());
        assertEquals(Map.of("a", List.of("1"), "b", List.of("2")), QueryParameters.parse("?a=1&&b=2&").entrySet()
                .stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> List.copyOf(e.getValue()))));
    }

    @Test
    void aQueryStringWithABrokenPercentEscapeIsRefusedNamingIt() {
        XapiException e = assertThrows(XapiException.class, () -> QueryParameters.parse("verb=%zz"));
        assertEquals("parameter.invalid", e.code());
        assertTrue(e.getMessage().contains("verb=%zz"), e.getMessage());
    }
}
