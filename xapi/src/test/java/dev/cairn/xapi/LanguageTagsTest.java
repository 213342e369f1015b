package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RFC 5646 language tags: values the check must accept and values it must reject. */
class LanguageTagsTest {

    /** RFC 5646 section 2.1 and appendix A examples, plus the conformance suite's valid tags. */
    @ParameterizedTest
    @ValueSource(strings = {"de", "fr", "ja", "i-enochian", "zh-Hant", "zh-Hans", "sr-Cyrl", "sr-Latn",
            "zh-cmn-Hans-CN", "cmn-Hans-CN", "zh-yue-HK", "yue-HK", "zh-Hans-CN", "sr-Latn-RS", "sl-rozaj",
            "sl-rozaj-biske", "sl-nedis", "de-CH-1901", "sl-IT-nedis", "hy-Latn-IT-arevela", "de-DE", "en-US",
            "es-419", "de-CH-x-phonebk", "az-Arab-x-AZE-derbend", "x-whatever", "qaa-Qaaa-QM-x-southern",
            "de-Qaaa", "sr-Latn-QM", "sr-Qaaa-RS", "en-US-u-islamcal", "zh-CN-a-myext-x-private",
            "en-a-myext-b-another", "en-GB-oed", "tlh", "und", "EN-us", "zh-min-nan", "art-lojban"})
    void languageTags(String tag) {
        assertTrue(LanguageTags.isValid(tag), tag);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a12345", "a12345678", "de-419-DE", "a-DE", "ar-a-aaa-b-bbb-a", "en-", "-en",
            "en--US", "x", "x-", "en-US-x", "abcdefghi", "en_US", "english!", "en-a", "1en", "x-123456789"})
    void notLanguageTags(String tag) {
        assertFalse(LanguageTags.isValid(tag), tag);
    }
}
