package dev.cairn.xapi;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * Checks for the scalar types of xAPI (Data 4): IRIs, UUIDs, language tags, timestamps, durations, mailto IRIs,
 * hashes and media types. Every check is a single pass over the characters with no regular expressions and no
 * allocation, so the parser's cost stays close to Jackson's tokenizing.
 */
public final class Values {
    /** RFC 5646 section 2.2.8: the irregular grandfathered tags, which do not follow the langtag syntax. */
    private static final Set<String> IRREGULAR_TAGS = Set.of("en-gb-oed", "i-ami", "i-bnn", "i-default",
            "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo", "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu",
            "sgn-be-fr", "sgn-be-nl", "sgn-ch-de");

    /** ASCII characters an IRI cannot hold unencoded: controls, space, DEL and {@code < > " { } | \\ ^ `}. */
    private static final boolean[] IRI_EXCLUDED = new boolean[128];
    /** ASCII characters of an IRI scheme after its first letter: letters, digits, {@code + - .}. */
    private static final boolean[] SCHEME = new boolean[128];
    /** The value of an ASCII hexadecimal digit, or -1. */
    private static final byte[] HEX = new byte[128];

    static {
        for (int c = 0; c <= ' '; c++) {
            IRI_EXCLUDED[c] = true;
        }
        IRI_EXCLUDED[0x7f] = true;
        for (char c : "<>\"{}|\\^`".toCharArray()) {
            IRI_EXCLUDED[c] = true;
        }
        for (int c = 0; c < 128; c++) {
            SCHEME[c] = isAsciiLetter((char) c) || isDigit((char) c) || c == '+' || c == '-' || c == '.';
        }
        java.util.Arrays.fill(HEX, (byte) -1);
        for (int i = 0; i < 16; i++) {
            HEX["0123456789abcdef".charAt(i)] = (byte) i;
            HEX["0123456789ABCDEF".charAt(i)] = (byte) i;
        }
    }

    private Values() {
    }

    // ---- IRIs ------------------------------------------------------------------------------------------------

    /**
     * An absolute IRI (RFC 3987) in the shape xAPI needs (Data 4.2): a scheme (a letter, then letters, digits,
     * {@code + - .}), a colon, and a non-empty rest without whitespace, control characters or the characters
     * RFC 3987 excludes ({@code < > " { } | \ ^ `}). A value without a scheme is rejected (Data 2.2, XAPI-00011).
     */
    public static boolean isIri(String s) {
        int colon = s.indexOf(':');
        if (colon < 1 || !isAsciiLetter(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < colon; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || !SCHEME[c]) {
                return false;
            }
        }
        for (int i = colon + 1, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80 ? IRI_EXCLUDED[c] : c <= 0x9f) {
                return false;
            }
        }
        return colon + 1 < s.length();
    }

    /**
     * A mailto IRI naming one email address (Data 2.4.2.3 mbox): {@code mailto:} then a non-empty local part, one
     * {@code @} and a non-empty domain, without whitespace or the characters an address cannot hold unquoted.
     */
    public static boolean isMailto(String s) {
        if (!s.startsWith("mailto:")) {
            return false;
        }
        int at = -1;
        for (int i = 7; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '@') {
                if (at >= 0) {
                    return false;
                }
                at = i;
            } else if (c <= ' ' || c == '<' || c == '>' || c == '"' || c == '(' || c == ')' || c == ',' || c == ';'
                    || c == ':' || c == '\\' || c == '[' || c == ']' || c == '?' || c == 0x7f) {
                return false;
            }
        }
        return at > 7 && at < s.length() - 1 && s.charAt(at + 1) != '.' && s.charAt(s.length() - 1) != '.';
    }

    // ---- UUIDs -----------------------------------------------------------------------------------------------

    /**
     * A UUID in the standard string form of RFC 4122 (Data 4.4): 8-4-4-4-12 hexadecimal digits, either case
     * ("case insensitive on input"). Every version and variant is accepted: Data 2.4.1 calls all versions of the
     * RFC 4122 variant valid and Data 4.4 only recommends that variant, and statements imported from other
     * systems carry ids of every kind.
     */
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
            } else if (!isHexDigit(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The UUID in {@code c[off, off + len)} in standard string form, or null when it is not one; reads the
     * parser's character buffer directly, so no String is made for a value the model keeps as a UUID.
     */
    static UUID uuid(char[] c, int off, int len) {
        if (len != 36) {
            return null;
        }
        long msb = 0, lsb = 0;
        for (int i = 0; i < 36; i++) {
            char ch = c[off + i];
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (ch != '-') {
                    return null;
                }
                continue;
            }
            int v = ch < 0x80 ? HEX[ch] : -1;
            if (v < 0) {
                return null;
            }
            if (i < 18) {
                msb = (msb << 4) | v;
            } else {
                lsb = (lsb << 4) | v;
            }
        }
        return new UUID(msb, lsb);
    }

    /** Parses a standard-form UUID, or throws {@code uuid.invalid} at the given location. */
    public static UUID uuid(String s, String where) {
        if (!isUuid(s)) {
            throw new XapiException(where, "uuid.invalid", "'" + s
                    + "' is not a UUID in standard string form (8-4-4-4-12 hexadecimal digits)");
        }
        return UUID.fromString(s);
    }

    // ---- language tags ---------------------------------------------------------------------------------------

    /**
     * An RFC 5646 language tag (Data 2.2: the LRS "MUST at least validate that the sequence of token lengths for
     * language map keys matches the RFC 5646 standard"): language (2-3 letters with up to three 3-letter
     * extlangs, or 4-8 letters), optional script (4 letters), optional region (2 letters or 3 digits), variants
     * (5-8 alphanumerics, or a digit and 3 alphanumerics), extensions (a singleton then subtags of 2-8) and a
     * private use part ({@code x} then subtags of 1-8); or a private use tag alone; or an irregular
     * grandfathered tag.
     */
    public static boolean isLanguageTag(String s) {
        int n = s.length();
        if (n == 0 || n > 255) {
            return false;
        }
        int start = 0;
        int end = subtagEnd(s, 0);
        if (end < 0) {
            return false;
        }
        int len = end - start;
        if (len == 1) {
            char c = s.charAt(0);
            if (c == 'x' || c == 'X') {
                return privateUse(s, end);
            }
            return (c == 'i' || c == 'I') && IRREGULAR_TAGS.contains(s.toLowerCase(Locale.ROOT));
        }
        if (!isAlpha(s, start, end)) {
            return false;
        }
        if (len > 8) {
            return false;
        }
        if (n == 9 && IRREGULAR_TAGS.contains(s.toLowerCase(Locale.ROOT))) {
            return true;
        }
        // extlang: up to three 3-letter subtags after a 2-3 letter language
        if (len <= 3) {
            for (int k = 0; k < 3 && end < n; k++) {
                int e = subtagEnd(s, end + 1);
                if (e < 0) {
                    return false;
                }
                if (e - end - 1 == 3 && isAlpha(s, end + 1, e)) {
                    end = e;
                } else {
                    break;
                }
            }
        }
        // script
        if (end < n) {
            int e = subtagEnd(s, end + 1);
            if (e < 0) {
                return false;
            }
            if (e - end - 1 == 4 && isAlpha(s, end + 1, e)) {
                end = e;
            }
        }
        // region
        if (end < n) {
            int e = subtagEnd(s, end + 1);
            if (e < 0) {
                return false;
            }
            int l = e - end - 1;
            if ((l == 2 && isAlpha(s, end + 1, e)) || (l == 3 && isDigits(s, end + 1, e))) {
                end = e;
            }
        }
        // variants
        while (end < n) {
            int e = subtagEnd(s, end + 1);
            if (e < 0) {
                return false;
            }
            int l = e - end - 1;
            if ((l >= 5 && l <= 8 && isAlnum(s, end + 1, e))
                    || (l == 4 && isDigit(s.charAt(end + 1)) && isAlnum(s, end + 1, e))) {
                end = e;
            } else {
                break;
            }
        }
        // extensions
        while (end < n) {
            int e = subtagEnd(s, end + 1);
            if (e < 0) {
                return false;
            }
            char c = s.charAt(end + 1);
            if (e - end - 1 != 1 || c == 'x' || c == 'X') {
                break;
            }
            if (!isAlnum(s, end + 1, e)) {
                return false;
            }
            end = e;
            int count = 0;
            while (end < n) {
                int f = subtagEnd(s, end + 1);
                if (f < 0) {
                    return false;
                }
                int l = f - end - 1;
                if (l < 2 || l > 8 || !isAlnum(s, end + 1, f)) {
                    break;
                }
                end = f;
                count++;
            }
            if (count == 0) {
                return false;
            }
        }
        if (end == n) {
            return true;
        }
        // private use
        int e = subtagEnd(s, end + 1);
        if (e - end - 1 != 1 || (s.charAt(end + 1) != 'x' && s.charAt(end + 1) != 'X')) {
            return false;
        }
        return privateUse(s, e);
    }

    /** After the {@code x} singleton at {@code [.., from)}: one or more subtags of 1-8 alphanumerics. */
    private static boolean privateUse(String s, int from) {
        int n = s.length();
        if (from >= n) {
            return false;
        }
        int end = from;
        while (end < n) {
            int e = subtagEnd(s, end + 1);
            if (e < 0 || e - end - 1 > 8 || !isAlnum(s, end + 1, e)) {
                return false;
            }
            end = e;
        }
        return true;
    }

    /**
     * The end of the subtag starting at {@code from} (the index of the next '-' or the length), or -1 when the
     * subtag is empty (a leading, doubled or trailing '-').
     */
    private static int subtagEnd(String s, int from) {
        int i = from;
        while (i < s.length() && s.charAt(i) != '-') {
            i++;
        }
        return i == from ? -1 : i;
    }

    private static boolean isAlpha(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isAsciiLetter(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAlnum(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!isAsciiLetter(c) && !isDigit(c)) {
                return false;
            }
        }
        return true;
    }

    // ---- non-negative integers -------------------------------------------------------------------------------

    /**
     * The value of a non-negative integer written with the ASCII digits 0-9 only (at least one, any number of
     * them, leading zeros allowed), {@link Long#MAX_VALUE} when it is larger than that, or -1 when {@code s} is
     * not such a number: empty, signed ({@code +5}, {@code -0}), with spaces or a decimal point, or with digits of
     * another script ({@code ٣}, {@code ５}), all of which {@link Long#parseLong} would take or throw on. The one
     * reading of every integer a client sends (limit, more tokens, lengths), so each follows the same rule.
     */
    public static long nonNegativeInteger(String s) {
        int n = s.length();
        if (n == 0) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            if (v != Long.MAX_VALUE) {
                int d = c - '0';
                v = v > (Long.MAX_VALUE - d) / 10 ? Long.MAX_VALUE : v * 10 + d;
            }
        }
        return v;
    }

    // ---- timestamps ------------------------------------------------------------------------------------------

    /**
     * An ISO 8601 combined date and time (Data 4.5) in extended format, {@code YYYY-MM-DDThh:mm:ss[.fraction]},
     * then a UTC offset: {@code Z}, {@code ±hh:mm}, {@code ±hhmm} or {@code ±hh}. xAPI 1.0.3 only recommends the
     * offset ("SHOULD* include the time zone"), so without one the time is read as UTC; xAPI 2.0 requires it. The
     * offsets {@code -00}, {@code -0000} and {@code -00:00} are rejected: ISO 8601 does not allow a negative zero
     * offset (RFC 3339 uses it for "local time unknown"), and the conformance suite expects a 400 for each
     * (XAPI-00123). Request parameters follow the same rule as statements (Data 2.2).
     */
    public static boolean isTimestamp(String s, XapiVersion version) {
        return isTimestamp(s, version == XapiVersion.V2_0_0);
    }

    static boolean isTimestamp(String s, boolean offsetRequired) {
        return parseTimestamp(s, false, null, offsetRequired) != Long.MIN_VALUE;
    }

    /** What a timestamp of {@code version} must be, for the message that refuses one. */
    public static String timestampRule(XapiVersion version) {
        return version == XapiVersion.V2_0_0
                ? "an ISO 8601 timestamp with its UTC offset (Z or one such as +02:00; xAPI 2.0 requires it), such as "
                + "2024-05-01T12:00:00.000Z"
                : "an ISO 8601 timestamp, such as 2024-05-01T12:00:00.000Z (add the UTC offset: without one it is read as UTC)";
    }

    /** The point in time of a timestamp accepted by {@link #isTimestamp}; without an offset, UTC. */
    public static Instant instant(String s) {
        long[] nanos = new long[1];
        long seconds = parseTimestamp(s, true, nanos, false);
        if (seconds == Long.MIN_VALUE) {
            throw new DateTimeParseException("not an xAPI timestamp", s, 0);
        }
        return Instant.ofEpochSecond(seconds, nanos[0]);
    }

    /** Epoch seconds (when {@code compute}) or 0, or Long.MIN_VALUE when {@code s} is not a timestamp. */
    private static long parseTimestamp(String s, boolean compute, long[] nanosOut, boolean offsetRequired) {
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
            while (i < n && isDigit(s.charAt(i))) {
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
            if (!isDigit(c)) {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    // ---- durations -------------------------------------------------------------------------------------------

    /**
     * An ISO 8601 duration in the format of ISO 8601:2004 section 4.4.3.2 (Data 4.6): {@code P[nY][nM][nD]
     * [T[nH][nM][nS]]} with at least one component, at least one after {@code T}, components in that order, and a
     * decimal fraction only on the last component; or {@code PnW} alone. The alternative format of section
     * 4.4.3.3 ({@code P0003-01-29T04:35:59}) and weeks combined with other components ({@code P4W1D}) are
     * rejected, as the conformance suite expects (XAPI-00124).
     */
    public static boolean isDuration(String s) {
        int n = s.length();
        if (n < 3 || s.charAt(0) != 'P') {
            return false;
        }
        int i = 1;
        int last = -1; // the rank of the last component: Y=0, M=1, D=2, H=4, M=5, S=6; W=7
        boolean time = false, fraction = false, any = false;
        while (i < n) {
            char c = s.charAt(i);
            if (c == 'T') {
                if (time) {
                    return false;
                }
                time = true;
                last = 3;
                i++;
                if (i == n) {
                    return false;
                }
                continue;
            }
            int from = i;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
            }
            if (i == from || i == n) {
                return false;
            }
            boolean hasFraction = false;
            if (s.charAt(i) == '.' || s.charAt(i) == ',') {
                int f = ++i;
                while (i < n && isDigit(s.charAt(i))) {
                    i++;
                }
                if (i == f || i == n) {
                    return false;
                }
                hasFraction = true;
            }
            if (fraction) {
                return false; // a fraction is only allowed on the smallest component given
            }
            int rank = switch (s.charAt(i)) {
                case 'Y' -> time ? -1 : 0;
                case 'M' -> time ? 5 : 1;
                case 'D' -> time ? -1 : 2;
                case 'H' -> time ? 4 : -1;
                case 'S' -> time ? 6 : -1;
                case 'W' -> time || any ? -1 : 7;
                default -> -1;
            };
            if (rank <= last) {
                return false;
            }
            last = rank;
            fraction = hasFraction;
            any = true;
            i++;
        }
        if (last == 3) {
            return false; // "T" with no time component
        }
        return any && (last != 7 || i == n);
    }

    /**
     * The duration as compared between statements: Data 2.3.1 compares result.duration as a string, and xAPI 2.0
     * (section 4.2.7) leaves out "any precision beyond 0.01 second", so the fraction of the seconds is cut (never
     * rounded) after two digits and a comma decimal sign is read as a point. {@code PT1.2367S} and
     * {@code PT1,23S} compare as {@code PT1.23S}; {@code PT1.2S} stays {@code PT1.2S}.
     */
    public static String comparableDuration(String d) {
        if (d == null || d.isEmpty() || d.charAt(d.length() - 1) != 'S') {
            return d;
        }
        int end = d.length() - 1;
        int i = end - 1;
        while (i >= 0 && isDigit(d.charAt(i))) {
            i--;
        }
        if (i < 0 || (d.charAt(i) != '.' && d.charAt(i) != ',')) {
            return d;
        }
        int fractionDigits = end - i - 1;
        if (fractionDigits <= 2 && d.charAt(i) == '.') {
            return d;
        }
        return d.substring(0, i) + '.' + d.substring(i + 1, i + 1 + Math.min(2, fractionDigits)) + 'S';
    }

    // ---- IRI comparison ----------------------------------------------------------------------------------------

    /**
     * The syntax-based normal form of an IRI (RFC 3987 section 5.3.2), the comparison xAPI 2.0 section 4.2.7 allows
     * beside simple string comparison: scheme and host in lower case, percent-encodings in upper case
     * (5.3.2.1), NFC (5.3.2.2), percent-encoded unreserved characters decoded (5.3.2.3) and dot segments removed
     * from the path of a hierarchical IRI (5.3.2.4). The domain of a mailto address is lower-cased too (Data 2.3.1:
     * "the domain portion an e-mail address is case insensitive"). Returns {@code s} itself when it is already
     * normal, so that comparing the usual IRIs allocates nothing.
     */
    public static String normalizeIri(String s) {
        int colon = s.indexOf(':');
        if (colon < 1) {
            return s;
        }
        String n = s;
        for (int i = 0; i < n.length(); i++) {
            if (n.charAt(i) >= 0x80) {
                n = java.text.Normalizer.normalize(n, java.text.Normalizer.Form.NFC);
                break;
            }
        }
        StringBuilder b = new StringBuilder(n.length());
        b.append(n, 0, colon).append(':');
        for (int i = 0; i < colon; i++) {
            b.setCharAt(i, Character.toLowerCase(n.charAt(i)));
        }
        String scheme = b.substring(0, colon);
        int rest = colon + 1;
        if (scheme.equals("mailto")) {
            int at = n.lastIndexOf('@');
            if (at > rest) {
                percent(b, n, rest, at + 1);
                b.append(n.substring(at + 1).toLowerCase(Locale.ROOT));
                return same(s, b);
            }
        }
        if (!n.startsWith("//", rest)) {
            percent(b, n, rest, n.length());
            return same(s, b);
        }
        int authorityEnd = rest + 2;
        while (authorityEnd < n.length() && "/?#".indexOf(n.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        int hostStart = n.lastIndexOf('@', authorityEnd - 1) + 1;
        if (hostStart <= rest + 2) {
            hostStart = rest + 2;
        }
        percent(b, n, rest, hostStart);
        StringBuilder host = new StringBuilder();
        percent(host, n, hostStart, authorityEnd);
        b.append(host.toString().toLowerCase(Locale.ROOT));
        int pathEnd = authorityEnd;
        while (pathEnd < n.length() && n.charAt(pathEnd) != '?' && n.charAt(pathEnd) != '#') {
            pathEnd++;
        }
        StringBuilder path = new StringBuilder();
        percent(path, n, authorityEnd, pathEnd);
        b.append(removeDotSegments(path.toString()));
        percent(b, n, pathEnd, n.length());
        return same(s, b);
    }

    private static String same(String original, StringBuilder normal) {
        return original.contentEquals(normal) ? original : normal.toString();
    }

    /** Appends {@code s[from, to)} with percent-encodings in upper case and encoded unreserved characters decoded. */
    private static void percent(StringBuilder b, String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < to && isHexDigit(s.charAt(i + 1)) && isHexDigit(s.charAt(i + 2))) {
                int v = Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16);
                if (isAsciiLetter((char) v) || isDigit((char) v) || v == '-' || v == '.' || v == '_' || v == '~') {
                    b.append((char) v);
                } else {
                    b.append('%').append(Character.toUpperCase(s.charAt(i + 1)))
                            .append(Character.toUpperCase(s.charAt(i + 2)));
                }
                i += 2;
            } else {
                b.append(c);
            }
        }
    }

    /** RFC 3986 section 5.2.4. */
    static String removeDotSegments(String path) {
        if (path.indexOf('.') < 0) {
            return path;
        }
        String in = path;
        StringBuilder out = new StringBuilder(path.length());
        while (!in.isEmpty()) {
            if (in.startsWith("../")) {
                in = in.substring(3);
            } else if (in.startsWith("./")) {
                in = in.substring(2);
            } else if (in.startsWith("/./")) {
                in = in.substring(2);
            } else if (in.equals("/.")) {
                in = "/";
            } else if (in.startsWith("/../")) {
                in = in.substring(3);
                out.setLength(Math.max(0, out.lastIndexOf("/")));
            } else if (in.equals("/..")) {
                in = "/";
                out.setLength(Math.max(0, out.lastIndexOf("/")));
            } else if (in.equals(".") || in.equals("..")) {
                in = "";
            } else {
                int next = in.indexOf('/', in.charAt(0) == '/' ? 1 : 0);
                if (next < 0) {
                    next = in.length();
                }
                out.append(in, 0, next);
                in = in.substring(next);
            }
        }
        return out.toString();
    }

    // ---- hashes and media types ------------------------------------------------------------------------------

    public static boolean isSha1Hex(String s) {
        return s.length() == 40 && isHex(s);
    }

    public static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isHexDigit(s.charAt(i))) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /**
     * An Internet Media Type (RFC 2046/RFC 6838, Data 2.4.11 contentType): {@code type/subtype} made of RFC 7230
     * token characters, optionally followed by {@code ;} and parameters (checked only for control characters).
     */
    public static boolean isMediaType(String s) {
        int n = s.length();
        int i = 0;
        while (i < n && isTokenChar(s.charAt(i))) {
            i++;
        }
        if (i == 0 || i == n || s.charAt(i) != '/') {
            return false;
        }
        int from = ++i;
        while (i < n && isTokenChar(s.charAt(i))) {
            i++;
        }
        if (i == from) {
            return false;
        }
        while (i < n && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        if (i == n) {
            return true;
        }
        if (s.charAt(i) != ';') {
            return false;
        }
        for (; i < n; i++) {
            char c = s.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTokenChar(char c) {
        return isAsciiLetter(c) || isDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    // ---- characters ------------------------------------------------------------------------------------------

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
