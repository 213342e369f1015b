package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.List;

/**
 * The one reading of Internet Media Types (RFC 2046, RFC 6838), wherever Cairn meets one: an attachment's
 * contentType (Data 2.4.11), a request's Content-Type, a multipart body's parts and its boundary. A media type is
 * its essence ({@code type/subtype}) up to the first {@code ;}, then {@code ;}-separated parameters
 * {@code name=value}. Checks allocate nothing.
 */
public final class MediaTypes {
    private MediaTypes() {
    }

    /**
     * An Internet Media Type (RFC 2046/RFC 6838, Data 2.4.11 contentType): {@code type/subtype} made of RFC 7230
     * token characters, optionally followed by {@code ;} and parameters (checked only for control characters).
     */
    public static boolean isValid(String s) {
        int n = s.length();
        int end = essenceEnd(s);
        int slash = tokenEnd(s, 0, end);
        if (slash == 0 || slash == end || s.charAt(slash) != '/') {
            return false;
        }
        int subtypeEnd = tokenEnd(s, slash + 1, end);
        if (subtypeEnd == slash + 1) {
            return false;
        }
        for (int i = subtypeEnd; i < end; i++) {
            if (s.charAt(i) != ' ' && s.charAt(i) != '\t') {
                return false;
            }
        }
        for (int i = end; i < n; i++) {
            char c = s.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the essence of {@code contentType}, without the whitespace around it, is {@code essence} in any ASCII
     * case (RFC 9110 section 8.3.1: type and subtype are case-insensitive); false when there is no Content-Type.
     */
    public static boolean hasEssence(String contentType, String essence) {
        if (contentType == null) {
            return false;
        }
        int end = essenceEnd(contentType);
        int from = 0;
        while (from < end && contentType.charAt(from) <= ' ') {
            from++;
        }
        while (end > from && contentType.charAt(end - 1) <= ' ') {
            end--;
        }
        if (end - from != essence.length()) {
            return false;
        }
        for (int i = 0; i < essence.length(); i++) {
            if (!sameIgnoringAsciiCase(contentType.charAt(from + i), essence.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The values of every parameter {@code name} (any case, directly followed by {@code =}) in order, each without
     * the whitespace around it and without one pair of enclosing double quotes.
     */
    public static List<String> parameterValues(String contentType, String name) {
        List<String> values = new ArrayList<>(1);
        int n = contentType.length();
        for (int semicolon = essenceEnd(contentType); semicolon < n; ) {
            int from = semicolon + 1;
            int next = contentType.indexOf(';', from);
            int to = next < 0 ? n : next;
            while (from < to && contentType.charAt(from) <= ' ') {
                from++;
            }
            int valueFrom = from + name.length() + 1;
            if (valueFrom <= to && contentType.regionMatches(true, from, name, 0, name.length())
                    && contentType.charAt(valueFrom - 1) == '=') {
                String value = contentType.substring(valueFrom, to).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                values.add(value);
            }
            semicolon = to;
        }
        return values;
    }

    /** Where the essence ends: at the first {@code ;}, or at the end. */
    private static int essenceEnd(String s) {
        int semicolon = s.indexOf(';');
        return semicolon < 0 ? s.length() : semicolon;
    }

    /** The end of the run of RFC 7230 token characters in {@code s[from, to)}. */
    private static int tokenEnd(String s, int from, int to) {
        int i = from;
        while (i < to && isTokenChar(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isTokenChar(char c) {
        return Ascii.isLetter(c) || Ascii.isDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static boolean sameIgnoringAsciiCase(char a, char b) {
        return a == b || (Ascii.isLetter(a) && (a | 0x20) == (b | 0x20));
    }
}
