package dev.cairn.xapi;

/** ISO 8601 durations (Data 4.6): which ones xAPI accepts, and the form in which two are compared. */
public final class Durations {
    private Durations() {
    }

    /**
     * An ISO 8601 duration in the format of ISO 8601:2004 section 4.4.3.2 (Data 4.6): {@code P[nY][nM][nD]
     * [T[nH][nM][nS]]} with at least one component, at least one after {@code T}, components in that order, and a
     * decimal fraction only on the last component; or {@code PnW} alone. The alternative format of section
     * 4.4.3.3 ({@code P0003-01-29T04:35:59}) and weeks combined with other components ({@code P4W1D}) are
     * rejected, as the conformance suite expects (XAPI-00124).
     */
    public static boolean isValid(String s) {
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
            while (i < n && Ascii.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == from || i == n) {
                return false;
            }
            boolean hasFraction = false;
            if (s.charAt(i) == '.' || s.charAt(i) == ',') {
                int f = ++i;
                while (i < n && Ascii.isDigit(s.charAt(i))) {
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
    public static String comparable(String d) {
        if (d == null || d.isEmpty() || d.charAt(d.length() - 1) != 'S') {
            return d;
        }
        int end = d.length() - 1;
        int i = end - 1;
        while (i >= 0 && Ascii.isDigit(d.charAt(i))) {
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
}
