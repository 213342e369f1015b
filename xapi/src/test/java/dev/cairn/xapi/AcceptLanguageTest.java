package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading Accept-Language (RFC 9110 12.5.4) as real clients send it, and as attackers do. */
class AcceptLanguageTest {
    private static final List<String> MAP = List.of("en-US", "en-GB", "de", "fr-CA");

    @ParameterizedTest
    @ValueSource(strings = {";", ";;;", "", " ", ",", ",,;,", "=", ";q=0.5", "q=1", "\t", "de;", "de;;q=0.5;",
            "-", "en-", "-en", "1en", "en_US", "*;q=", "de;q=", "de;q=2", "de;q=0.12345", "de;q=-1", "de;q=.5",
            "é", "\u0000", "de, ;, ;q=0"})
    void malformedHeadersNeverFailAndStillChooseOneLanguage(String header) {
        String chosen = AcceptLanguage.parse(header).choose(MAP);
        assertEquals(true, MAP.contains(chosen), header + " chose " + chosen);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "*|en-US",
            "de;q=0.5, en-GB;q=0.9|en-GB",
            "de;Q=0.5, en-GB;q=0.9|en-GB",
            "de;q=1.000, en-GB;q=0.999|de",
            "de;q=0.001, en-GB;q=0|de",
            "fr;q=0, *|en-US",
            "  en-GB  ;  q=0.5 ,\tde\t;q=0.4|en-GB",
            "en-GB;level=1;q=0.5, de;q=0.4|en-GB",
            ",,de,,|de",
            ";, de|de",
            "xx;q=bad, fr|fr-CA",
            "EN-gb|en-GB"})
    void rangesAreReadWithTheirWeightsAndOptionalWhitespace(String header, String chosen) {
        assertEquals(chosen, AcceptLanguage.parse(header).choose(MAP));
    }

    @Test
    void onlyTheFirstRangesOfAHugeHeaderAreKept() {
        StringBuilder b = new StringBuilder("it");
        int ranges = 1;
        while (b.length() < (1 << 20) - 16) {
            b.append(",x-").append(ranges % 100);
            ranges++;
        }
        b.append(",de"); // past the kept ranges: never tried
        assertEquals(true, ranges > 160_000, "ranges: " + ranges);
        AcceptLanguage parsed = AcceptLanguage.parse(b.toString());
        assertEquals(AcceptLanguage.MAX_RANGES, parsed.size());
        assertEquals("en-US", parsed.choose(MAP), "de comes after the kept ranges");
    }

    @Test
    void weightedRangesBeyondTheBoundAreNotKeptEither() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 160_000; i++) {
            b.append(i % 2 == 0 ? "en;q=0.1, " : "fr;q=0, ");
        }
        AcceptLanguage parsed = AcceptLanguage.parse(b.toString());
        assertEquals(AcceptLanguage.MAX_RANGES, parsed.size());
        assertEquals("en-US", parsed.choose(MAP));
    }

    @Test
    void aRangeLongerThanAnyLanguageTagIsIgnored() {
        String huge = "de" + "-a".repeat(500_000);
        AcceptLanguage parsed = AcceptLanguage.parse(huge + ", fr");
        assertEquals(1, parsed.size());
        assertEquals("fr-CA", parsed.choose(MAP));
    }

    @Test
    void aSemicolonFarAwayDoesNotMakeEveryElementSearchForIt() {
        String header = ",".repeat(1 << 20) + ";";
        assertEquals(0, AcceptLanguage.parse(header).size());
    }
}
