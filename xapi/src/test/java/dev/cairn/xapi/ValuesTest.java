package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The special data types of Data 4: each check with values it must accept and values it must reject. */
class ValuesTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com/a", "https://example.com/a?b=c#d", "urn:uuid:1", "mailto:a@b.c",
            "tag:example.com,2005:x", "http://example.com/\u00e9", "HTTP://EXAMPLE.COM", "x-y+z.1:a"})
    void iris(String iri) {
        assertTrue(Values.isIri(iri), iri);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "example.com/a", "www.example.com", ":a", "1http://a", "http:", "http://a b",
            "http://a<b>", "ht tp://a", "http://a\tb", "\u00e9:x"})
    void notIris(String iri) {
        assertFalse(Values.isIri(iri), iri);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fd41c918-b88b-4b20-a0a5-a4c32391aaa0", "FD41C918-B88B-4B20-A0A5-A4C32391AAA0",
            "00000000-0000-0000-0000-000000000000", "c232ab00-9414-11ec-b3c8-9f6bdeced846"})
    void uuids(String uuid) {
        assertTrue(Values.isUuid(uuid), uuid);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "AA97B177-9383-4934-8543-0F91A7A028368", "MA97B177-9383-4934-8543-0F91A7A02836",
            "fd41c918b88b4b20a0a5a4c32391aaa0", "{fd41c918-b88b-4b20-a0a5-a4c32391aaa0}",
            "fd41c918-b88b-4b20-a0a5-a4c32391aaa", "fd41c918_b88b_4b20_a0a5_a4c32391aaa0"})
    void notUuids(String uuid) {
        assertFalse(Values.isUuid(uuid), uuid);
    }

    /** RFC 5646 section 2.1 and appendix A examples, plus the conformance suite's valid tags. */
    @ParameterizedTest
    @ValueSource(strings = {"de", "fr", "ja", "i-enochian", "zh-Hant", "zh-Hans", "sr-Cyrl", "sr-Latn",
            "zh-cmn-Hans-CN", "cmn-Hans-CN", "zh-yue-HK", "yue-HK", "zh-Hans-CN", "sr-Latn-RS", "sl-rozaj",
            "sl-rozaj-biske", "sl-nedis", "de-CH-1901", "sl-IT-nedis", "hy-Latn-IT-arevela", "de-DE", "en-US",
            "es-419", "de-CH-x-phonebk", "az-Arab-x-AZE-derbend", "x-whatever", "qaa-Qaaa-QM-x-southern",
            "de-Qaaa", "sr-Latn-QM", "sr-Qaaa-RS", "en-US-u-islamcal", "zh-CN-a-myext-x-private",
            "en-a-myext-b-another", "en-GB-oed", "tlh", "und", "EN-us", "zh-min-nan", "art-lojban"})
    void languageTags(String tag) {
        assertTrue(Values.isLanguageTag(tag), tag);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a12345", "a12345678", "de-419-DE", "a-DE", "ar-a-aaa-b-bbb-a", "en-", "-en",
            "en--US", "x", "x-", "en-US-x", "abcdefghi", "en_US", "english!", "en-a", "1en", "x-123456789"})
    void notLanguageTags(String tag) {
        assertFalse(Values.isLanguageTag(tag), tag);
    }

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
        assertTrue(Values.isTimestamp(timestamp, XapiVersion.V1_0_3), timestamp);
        assertTrue(Values.isTimestamp(timestamp, XapiVersion.V2_0_0), timestamp);
        assertEquals(Instant.parse(utc), Values.instant(timestamp));
    }

    @ParameterizedTest
    @CsvSource({"2008-09-15T15:53:00, 2008-09-15T15:53:00Z", "2008-09-15T15:53:00.601, 2008-09-15T15:53:00.601Z",
            "2024-02-29t23:59:59, 2024-02-29T23:59:59Z"})
    void withoutAnOffsetATimestampIsValidIn103AsUtcButNotIn20(String timestamp, String utc) {
        assertTrue(Values.isTimestamp(timestamp, XapiVersion.V1_0_3), timestamp);
        assertEquals(Instant.parse(utc), Values.instant(timestamp));
        assertFalse(Values.isTimestamp(timestamp, XapiVersion.V2_0_0), timestamp);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "should fail", "01/011/2015", "2008-09-15", "2008-09-15T15:53Z",
            "2008-09-15T15:53:00.601-00", "2008-09-15T15:53:00.601-0000", "2008-09-15T15:53:00.601-00:00",
            "2008-09-15 15:53:00Z", "2008-13-15T15:53:00Z", "2023-02-29T15:53:00Z", "2008-09-31T00:00:00Z",
            "2008-09-15T24:00:00Z", "2008-09-15T15:60:00Z", "2008-09-15T15:53:60Z", "2008-09-15T15:53:00.Z",
            "2008-09-15T15:53:00+5", "2008-09-15T15:53:00+19:00", "2008-09-15T15:53:00+05:60",
            "2008-09-15T15:53:00ZZ", "20080915T155300Z", "2008-9-15T15:53:00Z", "+2008-09-15T15:53:00Z"})
    void notTimestamps(String timestamp) {
        assertFalse(Values.isTimestamp(timestamp, XapiVersion.V1_0_3), timestamp);
        assertFalse(Values.isTimestamp(timestamp, XapiVersion.V2_0_0), timestamp);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT1H0M0.1S", "PT4H35M59.14S", "PT16559.14S", "P3Y1M29DT4H35M59.14S", "P3Y", "P4W",
            "PT1234S", "PT1H0M0S", "P1DT12H36M0.12567S", "P0D", "PT0S", "P1M", "PT1M", "P1Y2M3DT4H5M6S", "P0.5Y",
            "PT0,5S"})
    void durations(String duration) {
        assertTrue(Values.isDuration(duration), duration);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "P", "PT", "P1DT", "PA1H0M0S", "should fail", "P4W1D", "P1D4W", "PT1H4W",
            "P0003-01-29T04:35:59", "1H", "P1H", "PT1D", "PT1Y", "P1M1Y", "PT1S1M", "P1.5DT1H", "P.5D", "P1.D",
            "PT1H1H", "P1DT1HT1M", "pt1h", "P-1D", "PT1.5H30M"})
    void notDurations(String duration) {
        assertFalse(Values.isDuration(duration), duration);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mailto:xapi@adlnet.gov", "mailto:first.last+tag@sub.example.co.uk", "mailto:a@b"})
    void mailtos(String mbox) {
        assertTrue(Values.isMailto(mbox), mbox);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "xapi@adlnet.gov", "mailto:", "mailto:@adlnet.gov", "mailto:xapi@", "mailto:xapi",
            "mailto:a@b@c", "mailto:a b@c.d", "MAILTO:a@b.c", "mailto:<a@b.c>", "mailto:a@.b", "mailto:a@b."})
    void notMailtos(String mbox) {
        assertFalse(Values.isMailto(mbox), mbox);
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "text/plain; charset=ascii", "application/octet-stream",
            "image/svg+xml", "application/vnd.ms-excel", "multipart/mixed;boundary=abc"})
    void mediaTypes(String type) {
        assertTrue(Values.isMediaType(type), type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "text", "text/", "/plain", "plain text", "text/plain text", "text/pl(ain"})
    void notMediaTypes(String type) {
        assertFalse(Values.isMediaType(type), type);
    }

    @ParameterizedTest
    @CsvSource({"ebd31e95054c018b10727ccffd2ef2ec3a016ee9, true", "EBD31E95054C018B10727CCFFD2EF2EC3A016EE9, true",
            "ebd31e95054c018b10727ccffd2ef2ec3a016ee, false", "ebd31e95054c018b10727ccffd2ef2ec3a016ee9a, false",
            "gbd31e95054c018b10727ccffd2ef2ec3a016ee9, false"})
    void sha1(String value, boolean valid) {
        assertEquals(valid, Values.isSha1Hex(value), value);
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "7, 7", "007, 7", "2147483648, 2147483648", "9223372036854775807, 9223372036854775807",
            "9223372036854775808, 9223372036854775807", "000000000000000000000000000001, 1",
            "99999999999999999999999999999999, 9223372036854775807"})
    void nonNegativeIntegersInAsciiDigitsSaturateAtLongMax(String text, long value) {
        assertEquals(value, Values.nonNegativeInteger(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "+5", "-0", "-1", "\u0663", "\uff15", "5\u0663", " 5", "5 ", "5.0", "1e3", "0x1",
            "\u00b2", "\u0000"})
    void anythingElseIsNotANonNegativeInteger(String text) {
        assertEquals(-1, Values.nonNegativeInteger(text), text);
    }
}
