package dev.cairn.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which origins browser content may call Cairn from (the Fetch standard's CORS protocol), and for how long a
 * browser may cache a preflight. Any origin is the default: every request still needs a credential, so the
 * origin check only narrows which pages may use one. An allowed origin is written exactly
 * ({@code https://lms.example.com}, {@code http://127.0.0.1:8000}) or with a wildcard for one or more leading
 * host labels ({@code https://*.example.com} allows {@code https://a.example.com} and
 * {@code https://a.b.example.com}, not {@code https://example.com}).
 */
public final class CorsPolicy {
    private static final int MAX_ORIGIN_LENGTH = 2048;

    private final boolean anyOrigin;
    private final List<String> exact;
    private final List<String[]> wildcards; // {scheme "://", host suffix beginning with '.', ":port" or ""}
    private final long maxAgeSeconds;

    private CorsPolicy(boolean anyOrigin, List<String> exact, List<String[]> wildcards, long maxAgeSeconds) {
        this.anyOrigin = anyOrigin;
        this.exact = exact;
        this.wildcards = wildcards;
        this.maxAgeSeconds = maxAgeSeconds;
    }

    /**
     * @param origins {@code *} for any origin, or a comma-separated list of origins and wildcard patterns
     * @throws IllegalArgumentException naming the entry that is not an origin
     */
    public static CorsPolicy parse(String origins, long maxAgeSeconds) {
        if (maxAgeSeconds < 0) {
            throw new IllegalArgumentException("cors-max-age=" + maxAgeSeconds + " must not be negative");
        }
        if (origins.trim().equals("*")) {
            return new CorsPolicy(true, List.of(), List.of(), maxAgeSeconds);
        }
        List<String> exact = new ArrayList<>();
        List<String[]> wildcards = new ArrayList<>();
        for (String raw : origins.split(",")) {
            String entry = raw.trim().toLowerCase(Locale.ROOT);
            int scheme = entry.indexOf("://");
            if (scheme < 1 || entry.endsWith("/") || entry.length() == scheme + 3
                    || entry.indexOf('/', scheme + 3) >= 0 || !entry.substring(0, scheme).matches("[a-z][a-z0-9+.-]*")) {
                throw new IllegalArgumentException("cors-origins: '" + raw.trim() + "' is not an origin; write "
                        + "scheme://host[:port] (for example https://lms.example.com or https://*.example.com), or * for any");
            }
            if (entry.startsWith("*.", scheme + 3)) {
                String rest = entry.substring(scheme + 4); // ".example.com[:port]"
                int colon = rest.indexOf(':');
                String host = colon < 0 ? rest : rest.substring(0, colon);
                if (host.length() < 2 || host.contains("*")) {
                    throw new IllegalArgumentException("cors-origins: '" + raw.trim() + "' has a wildcard in the wrong "
                            + "place; only a leading '*.' before a domain is allowed");
                }
                wildcards.add(new String[] {entry.substring(0, scheme + 3), host, colon < 0 ? "" : rest.substring(colon)});
            } else if (entry.contains("*")) {
                throw new IllegalArgumentException("cors-origins: '" + raw.trim() + "' has a wildcard in the wrong "
                        + "place; only a leading '*.' before a domain is allowed");
            } else {
                exact.add(entry);
            }
        }
        return new CorsPolicy(false, List.copyOf(exact), List.copyOf(wildcards), maxAgeSeconds);
    }

    /** Whether requests from every origin are allowed. */
    public boolean anyOrigin() {
        return anyOrigin;
    }

    public long maxAgeSeconds() {
        return maxAgeSeconds;
    }

    /** These origins with another time a browser may cache a preflight's answer. */
    public CorsPolicy withMaxAge(long seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("cors-max-age=" + seconds + " must not be negative");
        }
        return new CorsPolicy(anyOrigin, exact, wildcards, seconds);
    }

    /** Whether content served from {@code origin} (the request's Origin header, as the browser sent it) may call. */
    public boolean allows(String origin) {
        if (anyOrigin) {
            return true;
        }
        if (origin.length() > MAX_ORIGIN_LENGTH) {
            return false;
        }
        String o = origin.toLowerCase(Locale.ROOT);
        if (exact.contains(o)) {
            return true;
        }
        for (String[] w : wildcards) {
            if (!o.startsWith(w[0])) {
                continue;
            }
            String hostPort = o.substring(w[0].length());
            String host = w[2].isEmpty() ? hostPort : hostPort.endsWith(w[2])
                    ? hostPort.substring(0, hostPort.length() - w[2].length()) : null;
            if (host != null && host.indexOf(':') < 0 && host.length() > w[1].length() && host.endsWith(w[1])
                    && host.charAt(0) != '.' && host.indexOf('/') < 0) {
                return true;
            }
        }
        return false;
    }
}
