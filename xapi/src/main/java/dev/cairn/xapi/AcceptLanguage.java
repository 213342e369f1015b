package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The languages a client asked for in Accept-Language (RFC 9110 section 12.5.4), used to cut a language map to one
 * entry for {@code format=canonical} (Comm 2.1.3, Data 2.5 "Language filtering"). Ranges are tried from the
 * highest quality down (ties in header order); for each: the same tag, then a more specific tag (RFC 4647 basic
 * filtering: {@code en} matches {@code en-US}), then the range with subtags cut from the end (RFC 4647 lookup:
 * {@code en-GB-oed} finds {@code en-GB}, then {@code en}); {@code *} takes any language. When no range matches, a
 * tag sharing the primary language of a range is taken ({@code en-GB} finds {@code en-US}), and failing that the
 * map's first language, so the client always gets one language. A range with {@code q=0} excludes its languages.
 * Tags compare without regard to case.
 *
 * <p>The header is read in one pass and only its first {@link #MAX_RANGES} well-formed ranges are kept (browsers
 * send a handful), so a header of any length costs time linear in the part read and a choice costs at most
 * {@code MAX_RANGES} tries per language of the map. Malformed entries (a bad tag, a bad {@code q}, an empty
 * element, stray {@code ;}) are skipped rather than rejected: a header a client cannot easily control should not
 * fail a GET, and skipping one only makes the choice fall back to another language.
 */
public final class AcceptLanguage {
    /** How many ranges of a header are kept; the rest of the header is not read. */
    public static final int MAX_RANGES = 32;
    /** The longest range kept, in characters. */
    static final int MAX_RANGE_LENGTH = 64;
    /** No header: any language. */
    public static final AcceptLanguage ANY = new AcceptLanguage(List.of(), List.of());

    private final List<String> ranges;
    private final List<String> excluded;

    private AcceptLanguage(List<String> ranges, List<String> excluded) {
        this.ranges = ranges;
        this.excluded = excluded;
    }

    /** Parses an Accept-Language header value; null or blank means any language. */
    public static AcceptLanguage parse(String header) {
        if (header == null) {
            return ANY;
        }
        String[] tags = new String[MAX_RANGES];
        int[] qualities = new int[MAX_RANGES];
        int count = 0;
        List<String> excluded = new ArrayList<>();
        int n = header.length();
        for (int from = 0; from < n && count + excluded.size() < MAX_RANGES; ) {
            int end = indexOf(header, ',', from, n);
            int tagEnd = indexOf(header, ';', from, end);
            String tag = trimmed(header, from, tagEnd);
            int q = tag == null ? -1 : quality(header, tagEnd, end);
            from = end + 1;
            if (q < 0) {
                continue;
            }
            if (q == 0) {
                excluded.add(tag);
                continue;
            }
            // Stable insertion by descending quality keeps header order among equal qualities.
            int at = count;
            while (at > 0 && qualities[at - 1] < q) {
                tags[at] = tags[at - 1];
                qualities[at] = qualities[at - 1];
                at--;
            }
            tags[at] = tag;
            qualities[at] = q;
            count++;
        }
        if (count == 0 && excluded.isEmpty()) {
            return ANY;
        }
        return new AcceptLanguage(List.of(Arrays.copyOf(tags, count)), List.copyOf(excluded));
    }

    /** How many ranges this header kept, q=0 ones included: never more than {@link #MAX_RANGES}. */
    public int size() {
        return ranges.size() + excluded.size();
    }

    /** The tag of {@code available} to return, or null when it is empty. */
    public String choose(Collection<String> available) {
        if (available.isEmpty()) {
            return null;
        }
        for (String range : ranges) {
            String found = match(range, available);
            if (found != null) {
                return found;
            }
        }
        for (String range : ranges) {
            if (range.equals("*")) {
                continue;
            }
            String primary = primary(range);
            for (String tag : available) {
                if (!isExcluded(tag) && primary(tag.toLowerCase(Locale.ROOT)).equals(primary)) {
                    return tag;
                }
            }
        }
        for (String tag : available) {
            if (!isExcluded(tag)) {
                return tag;
            }
        }
        return available.iterator().next();
    }

    private String match(String range, Collection<String> available) {
        if (range.equals("*")) {
            for (String tag : available) {
                if (!isExcluded(tag)) {
                    return tag;
                }
            }
            return null;
        }
        for (String tag : available) {
            if (tag.equalsIgnoreCase(range) && !isExcluded(tag)) {
                return tag;
            }
        }
        for (String tag : available) {
            if (isMoreSpecific(tag, range) && !isExcluded(tag)) {
                return tag;
            }
        }
        String cut = range;
        for (int dash = cut.lastIndexOf('-'); dash > 0; dash = cut.lastIndexOf('-')) {
            cut = cut.substring(0, dash);
            // RFC 4647 3.4: a single-letter subtag left at the end is cut with the one after it.
            if (cut.length() >= 2 && cut.charAt(cut.length() - 2) == '-') {
                cut = cut.substring(0, cut.length() - 2);
            }
            for (String tag : available) {
                if (tag.equalsIgnoreCase(cut) && !isExcluded(tag)) {
                    return tag;
                }
            }
        }
        return null;
    }

    private boolean isExcluded(String tag) {
        for (String range : excluded) {
            if (!range.equals("*") && (tag.equalsIgnoreCase(range) || isMoreSpecific(tag, range))) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code tag} is {@code range} followed by more subtags (case-insensitive). */
    private static boolean isMoreSpecific(String tag, String range) {
        return tag.length() > range.length() && tag.charAt(range.length()) == '-'
                && tag.regionMatches(true, 0, range, 0, range.length());
    }

    private static String primary(String tag) {
        int dash = tag.indexOf('-');
        return dash < 0 ? tag : tag.substring(0, dash);
    }

    /**
     * RFC 4647 2.1 basic language-range, {@code 1*8ALPHA *("-" 1*8alphanum)}, of at most {@link #MAX_RANGE_LENGTH}
     * characters (RFC 4647 4.4 lets an implementation bound a range; real tags are far shorter).
     */
    private static boolean isRange(String s, int from, int to) {
        if (to <= from || to - from > MAX_RANGE_LENGTH) {
            return false;
        }
        int len = 0;
        boolean first = true;
        for (int i = from; i <= to; i++) {
            char c = i < to ? s.charAt(i) : '-';
            if (c == '-') {
                if (len == 0 || len > 8) {
                    return false;
                }
                len = 0;
                first = false;
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9')) {
                len++;
            } else {
                return false;
            }
        }
        return true;
    }

    /** The language range in {@code [from, to)} without surrounding whitespace, lower-cased; null when malformed. */
    private static String trimmed(String s, int from, int to) {
        while (from < to && isSpace(s.charAt(from))) {
            from++;
        }
        while (to > from && isSpace(s.charAt(to - 1))) {
            to--;
        }
        if (to - from == 1 && s.charAt(from) == '*') {
            return "*";
        }
        return isRange(s, from, to) ? s.substring(from, to).toLowerCase(Locale.ROOT) : null;
    }

    /** The first index of {@code c} in {@code [from, to)}, or {@code to}: a search never runs past its element. */
    private static int indexOf(String s, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return to;
    }

    /**
     * The weight of the parameters in {@code [from, to)} (each starting with {@code ;}) in thousandths: 1000 when
     * there is no {@code q}, -1 when a {@code q} is malformed. Other parameters are ignored.
     */
    private static int quality(String s, int from, int to) {
        int q = 1000;
        while (from < to) {
            int next = indexOf(s, ';', from + 1, to);
            int i = from + 1;
            while (i < next && isSpace(s.charAt(i))) {
                i++;
            }
            if (i + 1 < next && (s.charAt(i) == 'q' || s.charAt(i) == 'Q') && s.charAt(i + 1) == '=') {
                int end = next;
                while (end > i + 2 && isSpace(s.charAt(end - 1))) {
                    end--;
                }
                q = qvalue(s, i + 2, end);
                if (q < 0) {
                    return -1;
                }
            }
            from = next;
        }
        return q;
    }

    /** RFC 9110 12.4.2 qvalue ({@code 0[.ddd]} or {@code 1[.000]}) in {@code [from, to)}, in thousandths, or -1. */
    private static int qvalue(String s, int from, int to) {
        int len = to - from;
        if (len < 1 || len > 5 || (s.charAt(from) != '0' && s.charAt(from) != '1')
                || (len > 1 && s.charAt(from + 1) != '.')) {
            return -1;
        }
        int q = (s.charAt(from) - '0') * 1000;
        int scale = 100;
        for (int i = from + 2; i < to; i++, scale /= 10) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            q += (c - '0') * scale;
        }
        return q > 1000 ? -1 : q;
    }

    /** RFC 9110 OWS: space and horizontal tab. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    @Override
    public String toString() {
        return "AcceptLanguage" + ranges + (excluded.isEmpty() ? "" : " excluding " + excluded);
    }
}
