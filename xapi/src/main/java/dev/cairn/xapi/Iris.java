package dev.cairn.xapi;

import java.util.Locale;

/**
 * IRIs (Data 4.2): whether a value is an absolute IRI or a mailto IRI, and the syntax-based normal form used to
 * compare them. Single passes over the characters, no regular expressions, no allocation when checking.
 */
public final class Iris {
    /** ASCII characters an IRI cannot hold unencoded: controls, space, DEL and {@code < > " { } | \\ ^ `}. */
    private static final boolean[] IRI_EXCLUDED = new boolean[128];
    /** ASCII characters of an IRI scheme after its first letter: letters, digits, {@code + - .}. */
    private static final boolean[] SCHEME = new boolean[128];

    static {
        for (int c = 0; c <= ' '; c++) {
            IRI_EXCLUDED[c] = true;
        }
        IRI_EXCLUDED[0x7f] = true;
        for (char c : "<>\"{}|\\^`".toCharArray()) {
            IRI_EXCLUDED[c] = true;
        }
        for (int c = 0; c < 128; c++) {
            SCHEME[c] = Ascii.isLetter((char) c) || Ascii.isDigit((char) c) || c == '+' || c == '-' || c == '.';
        }
    }

    private Iris() {
    }

    /**
     * An absolute IRI (RFC 3987) in the shape xAPI needs (Data 4.2): a scheme (a letter, then letters, digits,
     * {@code + - .}), a colon, and a non-empty rest without whitespace, control characters or the characters
     * RFC 3987 excludes ({@code < > " { } | \ ^ `}). A value without a scheme is rejected (Data 2.2, XAPI-00011).
     */
    public static boolean isAbsolute(String s) {
        int colon = s.indexOf(':');
        if (colon < 1 || !Ascii.isLetter(s.charAt(0))) {
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

    /**
     * The syntax-based normal form of an IRI (RFC 3987 section 5.3.2), the comparison xAPI 2.0 section 4.2.7 allows
     * beside simple string comparison: scheme and host in lower case, percent-encodings in upper case
     * (5.3.2.1), NFC (5.3.2.2), percent-encoded unreserved characters decoded (5.3.2.3) and dot segments removed
     * from the path of a hierarchical IRI (5.3.2.4). The domain of a mailto address is lower-cased too (Data 2.3.1:
     * "the domain portion an e-mail address is case insensitive"). Returns {@code s} itself when it is already
     * normal, so that comparing the usual IRIs allocates nothing.
     */
    public static String normalize(String s) {
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
            if (c == '%' && i + 2 < to && Ascii.isHexDigit(s.charAt(i + 1)) && Ascii.isHexDigit(s.charAt(i + 2))) {
                int v = Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16);
                if (Ascii.isLetter((char) v) || Ascii.isDigit((char) v) || v == '-' || v == '.' || v == '_' || v == '~') {
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
}
