package dev.cairn.query;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Last-Modified values (RFC 7231 dates). */
final class HttpDates {
    private HttpDates() {
    }

    static String format(long millis) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC));
    }
}
