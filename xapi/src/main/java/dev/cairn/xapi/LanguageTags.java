package dev.cairn.xapi;

import java.util.Locale;
import java.util.Set;

/** RFC 5646 language tags (Data 2.2, Data 4.3), checked by the lengths and kinds of their subtags. */
public final class LanguageTags {
    /** RFC 5646 section 2.2.8: the irregular grandfathered tags, which do not follow the langtag syntax. */
    private static final Set<String> IRREGULAR_TAGS = Set.of("en-gb-oed", "i-ami", "i-bnn", "i-default",
            "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo", "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu",
            "sgn-be-fr", "sgn-be-nl", "sgn-ch-de");

    private LanguageTags() {
    }

    /**
     * An RFC 5646 language tag (Data 2.2: the LRS "MUST at least validate that the sequence of token lengths for
     * language map keys matches the RFC 5646 standard"): language (2-3 letters with up to three 3-letter
     * extlangs, or 4-8 letters), optional script (4 letters), optional region (2 letters or 3 digits), variants
     * (5-8 alphanumerics, or a digit and 3 alphanumerics), extensions (a singleton then subtags of 2-8) and a
     * private use part ({@code x} then subtags of 1-8); or a private use tag alone; or an irregular
     * grandfathered tag.
     */
    public static boolean isValid(String s) {
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
                    || (l == 4 && Ascii.isDigit(s.charAt(end + 1)) && isAlnum(s, end + 1, e))) {
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
            if (!Ascii.isLetter(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Ascii.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAlnum(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!Ascii.isLetter(c) && !Ascii.isDigit(c)) {
                return false;
            }
        }
        return true;
    }
}
