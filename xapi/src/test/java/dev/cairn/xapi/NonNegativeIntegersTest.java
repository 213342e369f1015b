package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Non-negative integers: values the check must accept and values it must reject. */
class NonNegativeIntegersTest {

    @ParameterizedTest
    @CsvSource({"0, 0", "7, 7", "007, 7", "2147483648, 2147483648", "9223372036854775807, 9223372036854775807",
            "9223372036854775808, 9223372036854775807", "000000000000000000000000000001, 1",
            "99999999999999999999999999999999, 9223372036854775807"})
    void nonNegativeIntegersInAsciiDigitsSaturateAtLongMax(String text, long value) {
        assertEquals(value, NonNegativeIntegers.parse(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "+5", "-0", "-1", "\u0663", "\uff15", "5\u0663", " 5", "5 ", "5.0", "1e3", "0x1",
            "\u00b2", "\u0000"})
    void anythingElseIsNotANonNegativeInteger(String text) {
        assertEquals(-1, NonNegativeIntegers.parse(text), text);
    }
}
