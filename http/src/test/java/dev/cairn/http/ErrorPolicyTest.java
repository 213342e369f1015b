package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What of a client's values the error policy's log line repeats. */
class ErrorPolicyTest {
    @Test
    void aNewlineInAClientsValueCannotForgeALogLine() {
        assertEquals("abc?2026-12-02 ERROR forged?", ErrorPolicy.loggable("abc\n2026-12-02 ERROR forged\r"));
    }

    @Test
    void aLongValueIsCutAtTheLoggedLength() {
        String logged = ErrorPolicy.loggable("x".repeat(10_000));
        assertEquals("x".repeat(ErrorPolicy.LOGGED_CHARS) + "...", logged);
        assertEquals("f3c1b0e2-request", ErrorPolicy.loggable("f3c1b0e2-request"));
    }
}
