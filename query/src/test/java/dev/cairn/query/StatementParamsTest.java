package dev.cairn.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.store.StatementQuery;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
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
}
