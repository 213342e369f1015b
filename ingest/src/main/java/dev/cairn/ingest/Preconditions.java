package dev.cairn.ingest;

import java.util.ArrayList;
import java.util.List;

/**
 * The If-Match and If-None-Match headers of a document write (RFC 7232 as Comm 3.1 asks): lists of entity tags
 * or {@code *}. A tag matches a document whose ETag has the same value; weak tags compare like strong ones here
 * because every ETag Cairn sends is the SHA-1 of the content.
 */
public record Preconditions(List<String> ifMatch, List<String> ifNoneMatch) {
    public static final Preconditions NONE = new Preconditions(null, null);

    public static Preconditions of(String ifMatch, String ifNoneMatch) {
        return new Preconditions(tags(ifMatch), tags(ifNoneMatch));
    }

    public boolean isEmpty() {
        return ifMatch == null && ifNoneMatch == null;
    }

    /**
     * Whether a write may go ahead given the document's current ETag (null when there is no document).
     */
    public boolean allow(String currentEtag) {
        if (ifMatch != null && (currentEtag == null || !matches(ifMatch, currentEtag))) {
            return false;
        }
        return ifNoneMatch == null || currentEtag == null || !matches(ifNoneMatch, currentEtag);
    }

    private static boolean matches(List<String> tags, String etag) {
        for (String t : tags) {
            if (t.equals("*") || t.equalsIgnoreCase(etag)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> tags(String header) {
        if (header == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String part : header.split(",")) {
            String t = part.trim();
            if (t.startsWith("W/")) {
                t = t.substring(2);
            }
            if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
                t = t.substring(1, t.length() - 1);
            }
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }
}
