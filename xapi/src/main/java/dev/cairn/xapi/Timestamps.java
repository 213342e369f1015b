package dev.cairn.xapi;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * xAPI timestamps (Data 4.5): which ones a client may send, the point in time they name, and the one format Cairn
 * writes (UTC with milliseconds, e.g. 2026-01-02T03:04:05.678Z).
 */
public final class Timestamps {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(long epochMillis) {
        // Digits written straight from the date's fields: a formatter's field resolution and objects cost more than the
        // rest of stamping a statement's stored time or a response's Consistent-Through header.
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(epochMillis, 86_400_000L));
        long millisOfDay = Math.floorMod(epochMillis, 86_400_000L);
        if (date.getYear() < 1 || date.getYear() > 9999) {
            return MILLIS.format(Instant.ofEpochMilli(epochMillis)); // the pattern's signs and eras
        }
        byte[] b = {'0', '0', '0', '0', '-', '0', '0', '-', '0', '0', 'T', '0', '0', ':', '0', '0', ':', '0', '0', '.',
                '0', '0', '0', 'Z'};
        digits(b, 0, 4, date.getYear());
        digits(b, 5, 2, date.getMonthValue());
        digits(b, 8, 2, date.getDayOfMonth());
        digits(b, 11, 2, millisOfDay / 3_600_000);
        digits(b, 14, 2, millisOfDay / 60_000 % 60);
        digits(b, 17, 2, millisOfDay / 1000 % 60);
        digits(b, 20, 3, millisOfDay % 1000);
        return new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Writes {@code value} as {@code width} decimal digits ending at {@code at + width}. */
    private static void digits(byte[] b, int at, int width, long value) {
        for (int i = at + width - 1; i >= at; i--) {
            b[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    /**
     * An ISO 8601 combined date and time (Data 4.5) in extended format, {@code YYYY-MM-DDThh:mm:ss[.fraction]},
     * then a UTC offset: {@code Z}, {@code ±hh:mm}, {@code ±hhmm} or {@code ±hh}. xAPI 1.0.3 only recommends the
     * offset ("SHOULD* include the time zone"), so without one the time is read as UTC; xAPI 2.0 requires it. The
     * offsets {@code -00}, {@code -0000} and {@code -00:00} are rejected: ISO 8601 does not allow a negative zero
     * offset (RFC 3339 uses it for "local time unknown"), and the conformance suite expects a 400 for each
     * (XAPI-00123). Request parameters follow the same rule as statements (Data 2.2).
     */
    public static boolean isValid(String s, XapiVersion version) {
        return isValid(s, version == XapiVersion.V2_0_0);
    }

    static boolean isValid(String s, boolean offsetRequired) {
        return parse(s, false, null, offsetRequired) != Long.MIN_VALUE;
    }

    /** What a timestamp of {@code version} must be, for the message that refuses one. */
    public static String rule(XapiVersion version) {
        return version == XapiVersion.V2_0_0
                ? "an ISO 8601 timestamp with its UTC offset (Z or one such as +02:00; xAPI 2.0 requires it), such as "
                + "2024-05-01T12:00:00.000Z"
                : "an ISO 8601 timestamp, such as 2024-05-01T12:00:00.000Z (add the UTC offset: without one it is read as UTC)";
    }

    /** The point in time of a timestamp accepted by {@link #isValid}; without an offset, UTC. */
    public static Instant instant(String s) {
        long[] nanos = new long[1];
        long seconds = parse(s, true, nanos, false);
        if (seconds == Long.MIN_VALUE) {
            throw new DateTimeParseException("not an xAPI timestamp", s, 0);
        }
        return Instant.ofEpochSecond(seconds, nanos[0]);
    }

    /** Epoch seconds (when {@code compute}) or 0, or Long.MIN_VALUE when {@code s} is not a timestamp. */
    private static long parse(String s, boolean compute, long[] nanosOut, boolean offsetRequired) {
        int n = s.length();
        if (n < 19 || s.charAt(4) != '-' || s.charAt(7) != '-' || (s.charAt(10) != 'T' && s.charAt(10) != 't')
                || s.charAt(13) != ':' || s.charAt(16) != ':') {
            return Long.MIN_VALUE;
        }
        int year = digits(s, 0, 4), month = digits(s, 5, 2), day = digits(s, 8, 2);
        int hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59 || day > daysInMonth(year, month)) {
            return Long.MIN_VALUE;
        }
        int i = 19;
        long nanos = 0;
        if (i < n && (s.charAt(i) == '.' || s.charAt(i) == ',')) {
            int from = ++i;
            while (i < n && Ascii.isDigit(s.charAt(i))) {
                if (i - from < 9) {
                    nanos = nanos * 10 + (s.charAt(i) - '0');
                }
                i++;
            }
            if (i == from) {
                return Long.MIN_VALUE;
            }
            for (int k = i - from; k < 9; k++) {
                nanos *= 10;
            }
        }
        int offsetSeconds = 0;
        if (i < n) {
            char c = s.charAt(i);
            if (c == 'Z' || c == 'z') {
                if (i + 1 != n) {
                    return Long.MIN_VALUE;
                }
            } else if (c == '+' || c == '-') {
                int rest = n - i - 1;
                int oh, om = 0;
                if (rest == 2) {
                    oh = digits(s, i + 1, 2);
                } else if (rest == 4) {
                    oh = digits(s, i + 1, 2);
                    om = digits(s, i + 3, 2);
                } else if (rest == 5 && s.charAt(i + 3) == ':') {
                    oh = digits(s, i + 1, 2);
                    om = digits(s, i + 4, 2);
                } else {
                    return Long.MIN_VALUE;
                }
                if (oh < 0 || om < 0 || oh > 18 || om > 59 || (oh == 18 && om > 0)) {
                    return Long.MIN_VALUE;
                }
                if (c == '-' && oh == 0 && om == 0) {
                    return Long.MIN_VALUE;
                }
                offsetSeconds = (c == '-' ? -1 : 1) * (oh * 3600 + om * 60);
            } else {
                return Long.MIN_VALUE;
            }
        } else if (offsetRequired) {
            return Long.MIN_VALUE;
        }
        if (!compute) {
            return 0;
        }
        nanosOut[0] = nanos;
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return epochDay * 86400 + hour * 3600L + minute * 60L + second - offsetSeconds;
    }

    private static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** The value of {@code count} decimal digits at {@code from}, or -1 when one is not a digit. */
    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (!Ascii.isDigit(c)) {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
