package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Hexadecimal hashes: values the check must accept and values it must reject. */
class HashesTest {

    @ParameterizedTest
    @CsvSource({"ebd31e95054c018b10727ccffd2ef2ec3a016ee9, true", "EBD31E95054C018B10727CCFFD2EF2EC3A016EE9, true",
            "ebd31e95054c018b10727ccffd2ef2ec3a016ee, false", "ebd31e95054c018b10727ccffd2ef2ec3a016ee9a, false",
            "gbd31e95054c018b10727ccffd2ef2ec3a016ee9, false"})
    void sha1(String value, boolean valid) {
        assertEquals(valid, Hashes.isSha1Hex(value), value);
    }
}
