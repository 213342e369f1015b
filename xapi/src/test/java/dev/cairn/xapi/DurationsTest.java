package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** ISO 8601 durations (Data 4.6): which values are durations, and the form two durations are compared in. */
class DurationsTest {

    @ParameterizedTest
    @ValueSource(strings = {"PT1H0M0.1S", "PT4H35M59.14S", "PT16559.14S", "P3Y1M29DT4H35M59.14S", "P3Y", "P4W",
            "PT1234S", "PT1H0M0S", "P1DT12H36M0.12567S", "P0D", "PT0S", "P1M", "PT1M", "P1Y2M3DT4H5M6S", "P0.5Y",
            "PT0,5S"})
    void durations(String duration) {
        assertTrue(Durations.isValid(duration), duration);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "P", "PT", "P1DT", "PA1H0M0S", "should fail", "P4W1D", "P1D4W", "PT1H4W",
            "P0003-01-29T04:35:59", "1H", "P1H", "PT1D", "PT1Y", "P1M1Y", "PT1S1M", "P1.5DT1H", "P.5D", "P1.D",
            "PT1H1H", "P1DT1HT1M", "pt1h", "P-1D", "PT1.5H30M"})
    void notDurations(String duration) {
        assertFalse(Durations.isValid(duration), duration);
    }

    static Stream<Arguments> durations() {
        return Stream.of(
                Arguments.of("P1DT12H36M0.12567S", "P1DT12H36M0.12S"),
                Arguments.of("PT1,2345S", "PT1.23S"),
                Arguments.of("PT1.2S", "PT1.2S"),
                Arguments.of("PT1S", "PT1S"),
                Arguments.of("PT1.5H", "PT1.5H"),
                Arguments.of("P3Y", "P3Y"),
                Arguments.of("P1W", "P1W"));
    }

    @ParameterizedTest(name = "{0} compares as {1}")
    @MethodSource("durations")
    void durationsCompareToHundredths(String duration, String comparable) {
        assertEquals(comparable, Durations.comparable(duration));
    }
}
