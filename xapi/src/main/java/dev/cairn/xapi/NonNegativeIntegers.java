package dev.cairn.xapi;

/** The one reading of the integers a client sends in parameters and tokens. */
public final class NonNegativeIntegers {
    private NonNegativeIntegers() {
    }

    /**
     * The value of a non-negative integer written with the ASCII digits 0-9 only (at least one, any number of
     * them, leading zeros allowed), {@link Long#MAX_VALUE} when it is larger than that, or -1 when {@code s} is
     * not such a number: empty, signed ({@code +5}, {@code -0}), with spaces or a decimal point, or with digits of
     * another script ({@code ٣}, {@code ５}), all of which {@link Long#parseLong} would take or throw on. The one
     * reading of every integer a client sends (limit, more tokens, lengths), so each follows the same rule.
     */
    public static long parse(String s) {
        int n = s.length();
        if (n == 0) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!Ascii.isDigit(c)) {
                return -1;
            }
            if (v != Long.MAX_VALUE) {
                int d = c - '0';
                v = v > (Long.MAX_VALUE - d) / 10 ? Long.MAX_VALUE : v * 10 + d;
            }
        }
        return v;
    }
}
