package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** UUIDs (Data 4.4): values the check must accept and values it must reject. */
class UuidsTest {

    @ParameterizedTest
    @ValueSource(strings = {"fd41c918-b88b-4b20-a0a5-a4c32391aaa0", "FD41C918-B88B-4B20-A0A5-A4C32391AAA0",
            "00000000-0000-0000-0000-000000000000", "c232ab00-9414-11ec-b3c8-9f6bdeced846"})
    void uuids(String uuid) {
        assertTrue(Uuids.isValid(uuid), uuid);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "AA97B177-9383-4934-8543-0F91A7A028368", "MA97B177-9383-4934-8543-0F91A7A02836",
            "fd41c918b88b4b20a0a5a4c32391aaa0", "{fd41c918-b88b-4b20-a0a5-a4c32391aaa0}",
            "fd41c918-b88b-4b20-a0a5-a4c32391aaa", "fd41c918_b88b_4b20_a0a5_a4c32391aaa0"})
    void notUuids(String uuid) {
        assertFalse(Uuids.isValid(uuid), uuid);
    }
}
