package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Timestamps (Data 4.5): values the check must accept, with the instant they name, and values it must reject. */
class TimestampsTest {

    @ParameterizedTest
    @CsvSource({
            "2015-11-18T12:17:00+00:00, 2015-11-18T12:17:00Z",
            "2013-05-18T05:32:34.804Z, 2013-05-18T05:32:34.804Z",
            "2023-05-04T12:00:00-05:00, 2023-05-04T17:00:00Z",
            "2023-05-04T12:00:00-0530, 2023-05-04T17:30:00Z",
            "2023-05-04T12:00:00+02, 2023-05-04T10:00:00Z",
            "2008-09-15T15:53:00.601+00:00, 2008-09-15T15:53:00.601Z",
            "2008-09-15T15:53:00.123456789123Z, 2008-09-15T15:53:00.123456789Z",
            "2008-09-15t15:53:00z, 2008-09-15T15:53:00Z",
            "2024-02-29T23:59:59.9+14:00, 2024-02-29T09:59:59.900Z",
            "0001-01-01T00:00:00Z, 0001-01-01T00:00:00Z"})
    void timestampsWithAnOffsetAreValidInBothVersions(String timestamp, String utc) {
        assertTrue(Timestamps.isValid(timestamp, XapiVersion.V1_0_3), timestamp);
        assertTrue(Timestamps.isValid(timestamp, XapiVersion.V2_0_0), timestamp);
        assertEquals(Instant.parse(utc), Timestamps.instant(timestamp));
    }

    @ParameterizedTest
    @CsvSource({"2008-09-15T15:53:00, 2008-09-15T15:53:00Z", "2008-09-15T15:53:00.601, 2008-09-15T15:53:00.601Z",
            "2024-02-29t23:59:59, 2024-02-29T23:59:59Z"})
    void withoutAnOffsetATimestampIsValidIn103AsUtcButNotIn20(String timestamp, String utc) {
        assertTrue(Timestamps.isValid(timestamp, XapiVersion.V1_0_3), timestamp);
        assertEquals(Instant.parse(utc), Timestamps.instant(timestamp));
        assertFalse(Timestamps.isValid(timestamp, XapiVersion.V2_0_0), timestamp);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "should fail", "01/011/2015", "2008-09-15", "2008-09-15T15:53Z",
            "2008-09-15T15:53:00.601-00", "2008-09-15T15:53:00.601-0000", "2008-09-15T15:53:00.601-00:00",
            "2008-09-15 15:53:00Z", "2008-13-15T15:53:00Z", "2023-02-29T15:53:00Z", "2008-09-31T00:00:00Z",
            "2008-09-15T24:00:00Z", "2008-09-15T15:60:00Z", "2008-09-15T15:53:60Z", "2008-09-15T15:53:00.Z",
            "2008-09-15T15:53:00+5", "2008-09-15T15:53:00+19:00", "2008-09-15T15:53:00+05:60",
            "2008-09-15T15:53:00ZZ", "20080915T155300Z", "2008-9-15T15:53:00Z", "+2008-09-15T15:53:00Z"})
    void notTimestamps(String timestamp) {
        assertFalse(Timestamps.isValid(timestamp, XapiVersion.V1_0_3), timestamp);
        assertFalse(Timestamps.isValid(timestamp, XapiVersion.V2_0_0), timestamp);
    }

    /** What Cairn writes is what java.time writes for the pattern, for every year it can name. */
    @org.junit.jupiter.api.Test
    void formatWritesWhatTheFormatterWrites() {
        java.time.format.DateTimeFormatter reference = java.time.format.DateTimeFormatter
                .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC);
        java.util.List<Long> instants = new java.util.ArrayList<>(java.util.List.of(0L, -1L, 1L, 86_399_999L,
                951_782_400_000L, 951_868_799_999L, 4_107_542_400_000L, -2_208_988_800_000L, 253_402_300_799_999L,
                253_402_300_800_000L, -62_135_596_800_000L, -62_135_596_800_001L, Long.MAX_VALUE / 4));
        java.util.Random r = new java.util.Random(20);
        for (int i = 0; i < 100_000; i++) {
            instants.add(r.nextLong(-62_135_596_800_000L, 253_402_300_800_000L)); // years 1 to 9999
        }
        for (long t : instants) {
            assertEquals(reference.format(Instant.ofEpochMilli(t)), Timestamps.format(t), "at " + t);
        }
    }
}
