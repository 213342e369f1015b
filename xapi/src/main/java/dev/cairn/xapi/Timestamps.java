package dev.cairn.xapi;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The one timestamp format Cairn writes: UTC with milliseconds, e.g. 2026-01-02T03:04:05.678Z. */
public final class Timestamps {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(long epochMillis) {
        return MILLIS.format(Instant.ofEpochMilli(epochMillis));
    }
}
