package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The languages a client asked for in Accept-Language (RFC 7231 section 5.3.5), used to cut a language map to one
 * entry for {@code format=canonical} (Comm 2.1.3, Data 2.5 "Language filtering"). Ranges are tried from the
 * highest quality down (ties in header order); for each: the same tag, then a more specific tag (RFC 4647 basic
 * filtering: {@code en} matches {@code en-US}), then the range with subtags cut from the end (RFC 4647 lookup:
 * {@code en-GB-oed} finds {@code en-GB}, then {@code en}); {@code *} takes any language. When no range matches, a
 * tag sharing the primary language of a range is taken ({@code en-GB} finds {@code en-US}), and failing that the
 * map's first language, so the client always gets one language. A range with {@code q=0} excludes its languages.
 * Tags compare without regard to case. Malformed entries are ignored rather than rejected, as a header a client
 * cannot easily control should not fail a GET.
 */
public final class AcceptLanguage {
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
        if (header == null || header.isBlank()) {
            return ANY;
        }
        List<String> tags = new ArrayList<>();
        List<Integer> qualities = new ArrayList<>();
        List<String> excluded = new ArrayList<>();
        for (String part : header.split(",")) {
            String[] pieces = part.split(";");
            String tag = pieces[0].trim().toLowerCase(Locale.ROOT);
            if (tag.isEmpty() || !(tag.equals("*") || isRange(tag))) {
                continue;
            }
            int q = 1000;
            for (int i = 1; i < pieces.length; i++) {
                String param = pieces[i].trim();
                if (param.length() > 2 && (param.charAt(0) == 'q' || param.charAt(0) == 'Q') && param.charAt(1) == '=') {
                    q = quality(param.substring(2).trim());
                }
            }
            if (q < 0) {
                continue;
            }
            if (q == 0) {
                excluded.add(tag);
                continue;
            }
            // Stable insertion by descending quality keeps header order among equal qualities.
            int at = 0;
            while (at < qualities.size() && qualities.get(at) >= q) {
                at++;
            }
            tags.add(at, tag);
            qualities.add(at, q);
        }
        return new AcceptLanguage(List.copyOf(tags), List.copyOf(excluded));
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

    /** RFC 4647 2.1 language-range: 1*8ALPHA *("-" 1*8alphanum). */
    private static boolean isRange(String s) {
        int len = 0;
        boolean first = true;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : '-';
            if (c == '-') {
                if (len == 0 || len > 8) {
                    return false;
                }
                len = 0;
                first = false;
            } else if ((c >= 'a' && c <= 'z') || (!first && c >= '0' && c <= '9')) {
                len++;
            } else {
                return false;
            }
        }
        return true;
    }

    /** RFC 7231 qvalue in thousandths, or -1 when malformed. */
    private static int quality(String v) {
        if (v.isEmpty() || v.length() > 5 || (v.charAt(0) != '0' && v.charAt(0) != '1')) {
            return -1;
        }
        if (v.length() > 1 && v.charAt(1) != '.') {
            return -1;
        }
        int q = (v.charAt(0) - '0') * 1000;
        int scale = 100;
        for (int i = 2; i < v.length(); i++, scale /= 10) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            q += (c - '0') * scale;
        }
        return q > 1000 ? -1 : q;
    }

    @Override
    public String toString() {
        return "AcceptLanguage" + ranges + (excluded.isEmpty() ? "" : " excluding " + excluded);
    }
}
