package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The since of a document list follows the timestamp rule of the request's version (Data 2.2, 4.5). */
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
}
