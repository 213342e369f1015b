package dev.cairn.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.KeyFilter;
import dev.cairn.store.StatementQuery;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GET /statements parameters: limit is a non-negative integer in ASCII digits (Comm 2.1.3), clamped to the
 * maximum; since and until follow the timestamp rule of the request's version (Data 2.2, 4.5).
 */
class StatementParamsTest {
    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;
    static final String ANONYMOUS_GROUP = "{\"objectType\":\"Group\",\"member\":[{\"mbox\":\"mailto:a@example.com\"}]}";

    private static StatementParams withLimit(String limit) {
        Map<String, Deque<String>> params = Map.of("limit", new ArrayDeque<>(List.of(limit)));
        return StatementParams.parse(params, XapiVersion.V2_0_0, DEFAULT_LIMIT, MAX_LIMIT, 0);
    }

    @ParameterizedTest(name = "limit={0} -> {1}")
    @CsvSource({"1, 1", "5, 5", "005, 5", "999, 999", "1000, 1000", "1001, 1000", "0, 1000", "000, 1000",
            "2147483647, 1000", "2147483648, 1000", "9223372036854775808, 1000",
            "123456789012345678901234567890, 1000"})
    void aNonNegativeIntegerIsTakenAndClampedToTheMaximum(String limit, int expected) {
        assertEquals(expected, withLimit(limit).query().limit());
    }

    @ParameterizedTest(name = "limit=''{0}''")
    @ValueSource(strings = {"", "+5", "-0", "-1", "\u0663", "\uff15", "1\u0663", " 5", "5 ", "5.0", "1e3", "0x10",
            "five", "5,0", "\u00b2"})
    void anythingElseIs400NamingTheParameter(String limit) {
        XapiException e = assertThrows(XapiException.class, () -> withLimit(limit));
        assertEquals("parameter limit", e.where());
    }

    /** The since or until of a query with just that parameter. */
    private static Long time(String name, String value, XapiVersion version) {
        Map<String, Deque<String>> params = Map.of(name, new ArrayDeque<>(List.of(value)));
        StatementQuery q = StatementParams.parse(params, version, DEFAULT_LIMIT, MAX_LIMIT, 0).query();
        return name.equals("since") ? q.sinceMillis() : q.untilMillis();
    }

    @ParameterizedTest
    @ValueSource(strings = {"since", "until"})
    void aTimeWithAnOffsetIsTakenInBothVersions(String name) {
        long millis = Instant.parse("2024-05-01T10:00:00Z").toEpochMilli();
        assertEquals(millis, time(name, "2024-05-01T12:00:00+02:00", XapiVersion.V1_0_3));
        assertEquals(millis, time(name, "2024-05-01T12:00:00+02:00", XapiVersion.V2_0_0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"since", "until"})
    void aTimeWithoutAnOffsetIsReadAsUtcIn103(String name) {
        assertEquals(Instant.parse("2024-05-01T12:00:00.250Z").toEpochMilli(),
                time(name, "2024-05-01T12:00:00.250", XapiVersion.V1_0_3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"since", "until"})
    void aTimeWithoutAnOffsetIs400In20(String name) {
        XapiException e = assertThrows(XapiException.class, () -> time(name, "2024-05-01T12:00:00.250", XapiVersion.V2_0_0));
        assertEquals("parameter " + name, e.where());
        assertEquals(true, e.getMessage().contains("UTC offset"), e.getMessage());
    }

    /** The parameters name=value, name=value, ... */
    private static Map<String, Deque<String>> params(String... pairs) {
        Map<String, Deque<String>> params = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            params.computeIfAbsent(pairs[i], k -> new ArrayDeque<>()).add(pairs[i + 1]);
        }
        return params;
    }

    private static StatementParams parse(String... pairs) {
        return StatementParams.parse(params(pairs), XapiVersion.V2_0_0, DEFAULT_LIMIT, MAX_LIMIT, 0);
    }

    private static XapiException refused(String... pairs) {
        return assertThrows(XapiException.class, () -> parse(pairs));
    }

    @Test
    void noParametersAskForTheNewestStatementsInExactFormatWithTheDefaultLimit() {
        StatementParams p = parse();
        assertEquals("exact", p.format());
        assertFalse(p.attachments());
        assertEquals(DEFAULT_LIMIT, p.query().limit());
        assertFalse(p.query().ascending());
        assertEquals(List.of(), p.query().filters());
    }

    @Test
    void anUnknownParameterIs400Unknown() {
        assertEquals("parameter.unknown", refused("object", "x").code());
    }

    @Test
    void aParameterInAnotherCaseIs400Case() {
        XapiException e = refused("statementID", UUID.randomUUID().toString());
        assertEquals("parameter.case", e.code());
        assertEquals("parameter statementID", e.where());
    }

    @Test
    void aRepeatedParameterIs400Repeated() {
        assertEquals("parameter.repeated", refused("verb", "http://example.com/a", "verb", "http://example.com/b").code());
    }

    @Test
    void statementIdComesOnlyWithFormatAndAttachments() {
        UUID id = UUID.randomUUID();
        StatementParams p = parse("statementId", id.toString(), "format", "ids", "attachments", "true");
        assertEquals(id, p.statementId());
        assertNull(p.query());
        assertTrue(p.attachments());
        XapiException e = refused("statementId", id.toString(), "limit", "1");
        assertEquals("parameter.conflict", e.code());
        assertEquals("parameter limit", e.where());
    }

    @Test
    void statementIdAndVoidedStatementIdTogetherAre400() {
        assertEquals("parameter.conflict", refused("statementId", UUID.randomUUID().toString(),
                "voidedStatementId", UUID.randomUUID().toString()).code());
    }

    @Test
    void aStatementIdThatIsNotAUuidIs400NamingIt() {
        assertEquals("parameter statementId", refused("statementId", "not-a-uuid").where());
    }

    @ParameterizedTest
    @ValueSource(strings = {"EXACT", "full", ""})
    void aFormatOtherThanExactIdsOrCanonicalIs400(String format) {
        assertEquals("parameter format", refused("format", format).where());
    }

    @ParameterizedTest
    @ValueSource(strings = {"attachments", "ascending", "related_agents", "related_activities"})
    void aBooleanParameterIsTrueOrFalseAndNothingElse(String name) {
        parse(name, "true");
        parse(name, "false");
        assertEquals("parameter " + name, refused(name, "TRUE").where());
        assertEquals("parameter " + name, refused(name, "1").where());
    }

    @Test
    void aVerbOrActivityThatIsNotAnAbsoluteIriIs400() {
        assertEquals("parameter verb", refused("verb", "completed").where());
        assertEquals("parameter activity", refused("activity", "/relative").where());
    }

    @Test
    void anAgentWithoutAnIdentifierIs400() {
        XapiException e = refused("agent", ANONYMOUS_GROUP);
        assertEquals("parameter agent", e.where());
        assertEquals("parameter.invalid", e.code());
    }

    @Test
    void relatedAgentsWidensTheAgentFilterToEveryPlaceAnAgentAppears() {
        String agent = "{\"mbox\":\"mailto:a@example.com\"}";
        KeyFilter narrow = parse("agent", agent).query().filters().get(0);
        KeyFilter broad = parse("agent", agent, "related_agents", "true").query().filters().get(0);
        assertEquals(FilterKey.Kind.AGENT, narrow.key().kind());
        assertTrue(narrow.narrow());
        assertFalse(broad.narrow());
    }

    @Test
    void theCursorOfAMoreLinkIsWhereThePageStarts() {
        assertEquals(42, StatementParams.parse(params(), XapiVersion.V2_0_0, DEFAULT_LIMIT, MAX_LIMIT, 42)
                .query().afterSeq());
    }

    @Test
    void onlyAuthorityAddsTheAuthorityAsOneMoreFilter() {
        StatementParams p = parse("verb", "http://example.com/v").onlyAuthority("key-1");
        assertEquals("key-1", p.authority());
        assertEquals(new KeyFilter(new FilterKey(FilterKey.Kind.AUTHORITY, "key-1"), false), p.query().filters().get(1));
    }
}
