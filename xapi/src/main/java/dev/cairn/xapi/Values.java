package dev.cairn.xapi;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import java.util.regex.Pattern;

/** Checks for the scalar types of xAPI (Data 4): IRIs, UUIDs, language tags, timestamps, durations. */
public final class Values {
    private static final Pattern LANGUAGE_TAG = Pattern.compile(
            "(?i)([a-z]{2,3}(-[a-z]{3}){0,3}|[a-z]{4,8})(-[a-z]{4})?(-([a-z]{2}|[0-9]{3}))?(-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*"
            + "(-[0-9a-wy-z](-[a-z0-9]{2,8})+)*(-x(-[a-z0-9]{1,8})+)?|x(-[a-z0-9]{1,8})+|i-[a-z]{2,8}");
    private static final Pattern TIMESTAMP = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2}|[+-]\\d{4}|[+-]\\d{2})");
    private static final Pattern DURATION = Pattern.compile(
            "P(?=\\d|T\\d)(\\d+(\\.\\d+)?Y)?(\\d+(\\.\\d+)?M)?(\\d+(\\.\\d+)?W)?(\\d+(\\.\\d+)?D)?"
            + "(T(?=\\d)(\\d+(\\.\\d+)?H)?(\\d+(\\.\\d+)?M)?(\\d+(\\.\\d+)?S)?)?");

    private Values() {
    }

    /** An absolute IRI: a scheme, a colon and no whitespace (RFC 3987 in the shape xAPI needs). */
    public static boolean isIri(String s) {
        int colon = s.indexOf(':');
        if (colon < 1 || !isAsciiLetter(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < colon; i++) {
            char c = s.charAt(i);
            if (!(isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
                return false;
            }
        }
        for (int i = colon + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= ' ' || c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' || c == '\\'
                    || c == '^' || c == '`') {
                return false;
            }
        }
        return colon + 1 < s.length();
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** A UUID in its canonical 8-4-4-4-12 hexadecimal form. */
    public static boolean isUuid(String s) {
        if (s.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return false;
                }
            } else if (Character.digit(c, 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Parses a canonical UUID, or throws with the given location. */
    public static UUID uuid(String s, String where) {
        if (!isUuid(s)) {
            throw new XapiException(where, "uuid.invalid", "'" + s + "' is not a UUID (expected 8-4-4-4-12 hex digits)");
        }
        return UUID.fromString(s);
    }

    public static boolean isLanguageTag(String s) {
        return LANGUAGE_TAG.matcher(s).matches();
    }

    /** An ISO 8601 timestamp with a time zone, as Data 4.5 requires. */
    public static boolean isTimestamp(String s) {
        if (!TIMESTAMP.matcher(s).matches()) {
            return false;
        }
        try {
            instant(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** The point in time of a timestamp accepted by {@link #isTimestamp}. */
    public static Instant instant(String s) {
        String t = s;
        int n = t.length();
        // Normalise +hhmm and +hh offsets to +hh:mm for java.time.
        if (!t.endsWith("Z")) {
            int sign = Math.max(t.lastIndexOf('+'), t.lastIndexOf('-'));
            String offset = t.substring(sign + 1);
            if (offset.length() == 4) {
                t = t.substring(0, sign + 1) + offset.substring(0, 2) + ":" + offset.substring(2);
            } else if (offset.length() == 2) {
                t = t + ":00";
            }
        }
        if (n > 0 && t.endsWith("-00:00")) {
            t = t.substring(0, t.length() - 6) + "Z";
        }
        return OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    public static boolean isDuration(String s) {
        return DURATION.matcher(s).matches();
    }

    public static boolean isSha1Hex(String s) {
        return s.length() == 40 && isHex(s);
    }

    public static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return !s.isEmpty();
    }
}
