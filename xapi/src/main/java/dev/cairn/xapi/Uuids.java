package dev.cairn.xapi;

import java.util.UUID;

/** UUIDs in the standard string form of RFC 4122 (Data 4.4), checked and read without regular expressions. */
public final class Uuids {
    /** The value of an ASCII hexadecimal digit, or -1. */
    private static final byte[] HEX = new byte[128];

    static {
        java.util.Arrays.fill(HEX, (byte) -1);
        for (int i = 0; i < 16; i++) {
            HEX["0123456789abcdef".charAt(i)] = (byte) i;
            HEX["0123456789ABCDEF".charAt(i)] = (byte) i;
        }
    }

    private Uuids() {
    }

    /**
     * A UUID in the standard string form of RFC 4122 (Data 4.4): 8-4-4-4-12 hexadecimal digits, either case
     * ("case insensitive on input"). Every version and variant is accepted: Data 2.4.1 calls all versions of the
     * RFC 4122 variant valid and Data 4.4 only recommends that variant, and statements imported from other
     * systems carry ids of every kind.
     */
    public static boolean isValid(String s) {
        if (s.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return false;
                }
            } else if (!Ascii.isHexDigit(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The UUID in {@code c[off, off + len)} in standard string form, or null when it is not one; reads the
     * parser's character buffer directly, so no String is made for a value the model keeps as a UUID.
     */
    static UUID parse(char[] c, int off, int len) {
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
    public static UUID parse(String s, String where) {
        if (!isValid(s)) {
            throw new XapiException(where, "uuid.invalid", "'" + s
                    + "' is not a UUID in standard string form (8-4-4-4-12 hexadecimal digits)");
        }
        return UUID.fromString(s);
    }
}
