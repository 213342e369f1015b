package dev.cairn.xapi;

import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * Checks the syntax of one JSON object in a byte array and finds where it ends, without making tokens: the
 * structure check of a large import file runs this over every byte, on every core, before anything is imported, and
 * a large POST of statements is split with it to be parsed on two threads ({@link ParallelBatchParse}).
 *
 * <p>It accepts exactly what Jackson's default parser accepts when it skips the same object (RFC 8259 grammar;
 * strings without raw control characters, with the escapes JSON allows, in well-formed UTF-8, nesting up to Jackson's
 * limit), except Jackson's limits on the lengths of numbers and strings, which the parse of each statement applies to
 * that statement alone. Anything it refuses is checked again by Jackson, which reports the fault. One instance is used
 * by one thread at a time (it keeps the nesting stack).
 */
public final class JsonObjectSyntax {
    /** The bytes end inside the object. */
    public static final int INCOMPLETE = -1;
    /** The bytes are not a JSON object, or nest containers deeper than the limit. */
    public static final int MALFORMED = -2;
    /** Jackson's limit on nesting, which the parse after this check applies (the object itself is depth 1). */
    public static final int MAX_DEPTH = StreamReadConstraints.defaults().getMaxNestingDepth();

    // What the next byte that is not whitespace may be.
    private static final int VALUE = 0;
    private static final int VALUE_OR_END = 1; // just after '['
    private static final int NAME = 2;         // after ',' in an object
    private static final int NAME_OR_END = 3;  // just after '{'
    private static final int COLON = 4;
    private static final int AFTER_VALUE = 5;  // ',' or the bracket that closes the innermost container

    /** For bytes inside a string: 0 ends nothing and needs no check (the fast path), see {@link #string}. */
    private static final byte[] IN_STRING = new byte[256];
    private static final byte QUOTE = 1, BACKSLASH = 2, CONTROL = 3, UTF8_2 = 4, UTF8_3 = 5, UTF8_4 = 6, INVALID = 7;

    static {
        for (int c = 0; c < 0x20; c++) {
            IN_STRING[c] = CONTROL;
        }
        IN_STRING['"'] = QUOTE;
        IN_STRING['\\'] = BACKSLASH;
        // Well-formed UTF-8 (RFC 3629): no overlong 2-byte forms, nothing past U+10FFFF; see also secondByteFits.
        for (int c = 0x80; c < 0x100; c++) {
            IN_STRING[c] = c >= 0xC2 && c <= 0xDF ? UTF8_2 : c >= 0xE0 && c <= 0xEF ? UTF8_3 : c >= 0xF0 && c <= 0xF4 ? UTF8_4
                    : INVALID;
        }
    }

    /** True for each open container that is an object, false for an array; index = depth - 1. */
    private boolean[] objects = new boolean[64];
    /** The deepest nesting of containers accepted, the object itself counting 1. */
    private final int maxDepth;

    /** A check that nests as deep as Jackson does. */
    public JsonObjectSyntax() {
        this(MAX_DEPTH);
    }

    /** A check that refuses containers nested deeper than {@code maxDepth} (at most {@link #MAX_DEPTH}). */
    public JsonObjectSyntax(int maxDepth) {
        this.maxDepth = Math.min(maxDepth, MAX_DEPTH);
    }

    /**
     * The offset just after the JSON object that starts at {@code b[from]}, {@link #INCOMPLETE} when {@code limit}
     * comes first, or {@link #MALFORMED} when {@code b[from]} does not start a well-formed object.
     */
    public int end(byte[] b, int from, int limit) {
        if (from >= limit) {
            return INCOMPLETE;
        }
        if (b[from] != '{') {
            return MALFORMED;
        }
        int depth = 0;
        int state = VALUE;
        int i = from;
        while (true) {
            if (i >= limit) {
                return INCOMPLETE;
            }
            byte c = b[i++];
            if (isWhitespace(c)) {
                continue;
            }
            switch (state) {
                case VALUE, VALUE_OR_END -> {
                    if ((c == '{' || c == '[') && depth == maxDepth) {
                        return MALFORMED; // Jackson refuses it too, and the stack stays small whatever comes
                    }
                    if (c == '{') {
                        push(depth++, true);
                        state = NAME_OR_END;
                        continue;
                    }
                    if (c == '[') {
                        push(depth++, false);
                        state = VALUE_OR_END;
                        continue;
                    }
                    if (c == ']' && state == VALUE_OR_END) {
                        depth--; // an array is never the outermost container
                        state = AFTER_VALUE;
                        continue;
                    }
                    i = scalar(b, c, i, limit);
                    if (i < 0) {
                        return i;
                    }
                    state = AFTER_VALUE;
                }
                case NAME, NAME_OR_END -> {
                    if (c == '}' && state == NAME_OR_END) {
                        if (--depth == 0) {
                            return i;
                        }
                        state = AFTER_VALUE;
                        continue;
                    }
                    if (c != '"') {
                        return MALFORMED;
                    }
                    i = string(b, i, limit);
                    if (i < 0) {
                        return i;
                    }
                    state = COLON;
                }
                case COLON -> {
                    if (c != ':') {
                        return MALFORMED;
                    }
                    state = VALUE;
                }
                default -> { // AFTER_VALUE
                    boolean inObject = objects[depth - 1];
                    if (c == ',') {
                        state = inObject ? NAME : VALUE;
                    } else if (c == (inObject ? '}' : ']')) {
                        if (--depth == 0) {
                            return i;
                        }
                    } else {
                        return MALFORMED;
                    }
                }
            }
        }
    }

    /** The whitespace JSON allows between tokens (and NDJSON between objects). */
    public static boolean isWhitespace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private void push(int depth, boolean object) {
        if (depth == objects.length) {
            objects = java.util.Arrays.copyOf(objects, depth * 2);
        }
        objects[depth] = object;
    }

    /** A string, number or literal whose first byte {@code c} was at {@code i - 1}; returns the offset after it. */
    private static int scalar(byte[] b, byte c, int i, int limit) {
        return switch (c) {
            case '"' -> string(b, i, limit);
            case 't' -> literal(b, i, limit, "rue");
            case 'f' -> literal(b, i, limit, "alse");
            case 'n' -> literal(b, i, limit, "ull");
            case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> number(b, i - 1, limit);
            default -> MALFORMED;
        };
    }

    /** The rest of a string whose opening quote was at {@code i - 1}; returns the offset after its closing quote. */
    private static int string(byte[] b, int i, int limit) {
        while (true) {
            while (i < limit && IN_STRING[b[i] & 0xFF] == 0) {
                i++;
            }
            if (i >= limit) {
                return INCOMPLETE;
            }
            switch (IN_STRING[b[i++] & 0xFF]) {
                case QUOTE -> {
                    return i;
                }
                case BACKSLASH -> {
                    if (i >= limit) {
                        return INCOMPLETE;
                    }
                    byte e = b[i++];
                    if (e == 'u') {
                        if (i + 4 > limit) {
                            return INCOMPLETE;
                        }
                        for (int end = i + 4; i < end; i++) {
                            if (Character.digit(b[i], 16) < 0) {
                                return MALFORMED;
                            }
                        }
                    } else if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r'
                            && e != 't') {
                        return MALFORMED;
                    }
                }
                case UTF8_2, UTF8_3, UTF8_4 -> {
                    int lead = b[i - 1] & 0xFF;
                    int n = IN_STRING[lead] - UTF8_2 + 1; // continuation bytes
                    if (i + n > limit) {
                        return INCOMPLETE;
                    }
                    if (!secondByteFits(lead, b[i] & 0xFF)) {
                        return MALFORMED;
                    }
                    for (int end = i + n; i < end; i++) {
                        if ((b[i] & 0xC0) != 0x80) {
                            return MALFORMED;
                        }
                    }
                }
                default -> {
                    return MALFORMED; // a raw control character, or a byte that cannot start a UTF-8 sequence
                }
            }
        }
    }

    /** No overlong 3- or 4-byte forms, no UTF-16 surrogates, nothing past U+10FFFF (RFC 3629, section 4). */
    private static boolean secondByteFits(int lead, int second) {
        return switch (lead) {
            case 0xE0 -> second >= 0xA0;
            case 0xED -> second < 0xA0;
            case 0xF0 -> second >= 0x90;
            case 0xF4 -> second < 0x90;
            default -> true;
        };
    }

    /** The rest of a literal after its first byte; returns the offset after it. */
    private static int literal(byte[] b, int i, int limit, String rest) {
        for (int k = 0; k < rest.length(); k++, i++) {
            if (i >= limit) {
                return INCOMPLETE;
            }
            if (b[i] != rest.charAt(k)) {
                return MALFORMED;
            }
        }
        return i;
    }

    /**
     * A number starting at {@code i}: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}; returns the
     * offset after it. What follows it is the caller's to check, so "01" ends after the "0" and fails there.
     */
    private static int number(byte[] b, int i, int limit) {
        if (b[i] == '-') {
            i++;
        }
        int digits = digits(b, i, limit);
        if (digits <= 0) {
            return digits < 0 ? INCOMPLETE : MALFORMED;
        }
        i = b[i] == '0' ? i + 1 : i + digits;
        if (i >= limit) {
            return INCOMPLETE;
        }
        if (b[i] == '.') {
            digits = digits(b, ++i, limit);
            if (digits <= 0) {
                return digits < 0 ? INCOMPLETE : MALFORMED;
            }
            i += digits;
            if (i >= limit) {
                return INCOMPLETE;
            }
        }
        if (b[i] == 'e' || b[i] == 'E') {
            if (++i < limit && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            digits = digits(b, i, limit);
            if (digits <= 0) {
                return digits < 0 ? INCOMPLETE : MALFORMED;
            }
            i += digits;
        }
        return i;
    }

    /** How many ASCII digits start at {@code i}; -1 when they run up to {@code limit} (the number may go on). */
    private static int digits(byte[] b, int i, int limit) {
        int n = 0;
        while (i + n < limit && b[i + n] >= '0' && b[i + n] <= '9') {
            n++;
        }
        return i + n >= limit ? -1 : n;
    }
}
