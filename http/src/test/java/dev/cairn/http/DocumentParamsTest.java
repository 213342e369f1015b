package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.DocumentKey;
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

/**
 * The parameters of the document resources (Comm 2.3, 2.6, 2.7): each resource's own names, exactly once; the
 * since of a document list follows the timestamp rule of the request's version (Data 2.2, 4.5).
 */
class DocumentParamsTest {

    private static DocumentParams listSince(String since, XapiVersion version) {
        Map<String, Deque<String>> params = Map.of("activityId", new ArrayDeque<>(List.of("http://example.com/a")),
                "since", new ArrayDeque<>(List.of(since)));
        return DocumentParams.parse(DocumentKey.Kind.ACTIVITY_PROFILE, params, version, false, true);
    }

    @Test
    void sinceWithAnOffsetIsTakenInBothVersions() {
        long millis = Instant.parse("2024-05-01T10:00:00Z").toEpochMilli();
        assertEquals(millis, listSince("2024-05-01T12:00:00+02:00", XapiVersion.V1_0_3).sinceMillis());
        assertEquals(millis, listSince("2024-05-01T12:00:00+02:00", XapiVersion.V2_0_0).sinceMillis());
    }

    @Test
    void sinceWithoutAnOffsetIsReadAsUtcIn103() {
        assertEquals(Instant.parse("2024-05-01T12:00:00Z").toEpochMilli(),
                listSince("2024-05-01T12:00:00", XapiVersion.V1_0_3).sinceMillis());
    }

    @Test
    void sinceWithoutAnOffsetIs400In20() {
        XapiException e = assertThrows(XapiException.class, () -> listSince("2024-05-01T12:00:00", XapiVersion.V2_0_0));
        assertEquals("parameter since", e.where());
        assertEquals(true, e.getMessage().contains("UTC offset"), e.getMessage());
    }

    private static final String AGENT = "{\"mbox\":\"mailto:a@example.com\"}";

    /** The parameters name=value, name=value, ... of a State request. */
    private static DocumentParams state(boolean idRequired, boolean read, String... pairs) {
        Map<String, Deque<String>> params = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            params.computeIfAbsent(pairs[i], k -> new ArrayDeque<>()).add(pairs[i + 1]);
        }
        return DocumentParams.parse(DocumentKey.Kind.STATE, params, XapiVersion.V2_0_0, idRequired, read);
    }

    private static XapiException refused(boolean idRequired, boolean read, String... pairs) {
        return assertThrows(XapiException.class, () -> state(idRequired, read, pairs));
    }

    @Test
    void aStateIsNamedByActivityAgentRegistrationAndStateId() {
        UUID registration = UUID.randomUUID();
        DocumentParams p = state(true, false, "activityId", "http://example.com/a", "agent", AGENT,
                "registration", registration.toString().toUpperCase(), "stateId", "bookmark");
        assertEquals(new DocumentKey(DocumentKey.Kind.STATE, "http://example.com/a", "mbox:mailto:a@example.com",
                registration.toString(), "bookmark"), p.key());
        assertTrue(p.hasId());
    }

    @Test
    void aListWithoutAnIdNamesNoDocument() {
        DocumentParams p = state(false, true, "activityId", "http://example.com/a", "agent", AGENT);
        assertFalse(p.hasId());
        assertEquals("", p.key().id());
    }

    @Test
    void aParameterOfAnotherResourceIs400Unknown() {
        XapiException e = refused(true, false, "activityId", "http://example.com/a", "agent", AGENT, "stateId", "s",
                "profileId", "p");
        assertEquals("parameter.unknown", e.code());
        assertEquals("parameter profileId", e.where());
    }

    @Test
    void aParameterInAnotherCaseIs400Case() {
        assertEquals("parameter.case", refused(true, false, "activityID", "http://example.com/a").code());
    }

    @Test
    void aRepeatedParameterIs400Repeated() {
        assertEquals("parameter.repeated", refused(true, false, "activityId", "http://example.com/a", "activityId",
                "http://example.com/b").code());
    }

    @Test
    void aWriteWithoutTheDocumentIdIs400Missing() {
        XapiException e = refused(true, false, "activityId", "http://example.com/a", "agent", AGENT);
        assertEquals("parameter.missing", e.code());
        assertEquals("parameter stateId", e.where());
    }

    @Test
    void anActivityIdThatIsNotAnAbsoluteIriIs400() {
        assertEquals("parameter activityId", refused(true, false, "activityId", "a", "agent", AGENT, "stateId", "s")
                .where());
    }

    @Test
    void anAgentWithoutAnIdentifierIs400() {
        XapiException e = refused(true, false, "activityId", "http://example.com/a", "agent",
                "{\"objectType\":\"Group\",\"member\":[{\"mbox\":\"mailto:a@example.com\"}]}", "stateId", "s");
        assertEquals("parameter agent", e.where());
        assertEquals("parameter.invalid", e.code());
    }

    @Test
    void sinceIsRefusedWithADocumentIdAndOnAWrite() {
        String since = "2024-05-01T12:00:00Z";
        assertEquals("parameter.not_allowed", refused(false, true, "activityId", "http://example.com/a", "agent", AGENT,
                "stateId", "s", "since", since).code());
        assertEquals("parameter.not_allowed", refused(false, false, "activityId", "http://example.com/a", "agent",
                AGENT, "since", since).code());
    }
}
