package dev.cairn.xapi;

/** Hexadecimal hashes: an mbox_sha1sum (Data 2.4.2.3) and an attachment's sha2 (Data 2.4.11). */
public final class Hashes {
    private Hashes() {
    }

    public static boolean isSha1Hex(String s) {
        return s.length() == 40 && isHex(s);
    }

    public static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Ascii.isHexDigit(s.charAt(i))) {
                return false;
            }
        }
        return !s.isEmpty();
    }
}
