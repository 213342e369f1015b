package dev.cairn.query;

import dev.cairn.http.QueryParameters;
import dev.cairn.xapi.NonNegativeIntegers;
import dev.cairn.xapi.XapiException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;

/**
 * The token of a {@code more} link: the query's own parameters and the sequence number of the last statement
 * returned, base64url-encoded. It needs no server state, so it stays valid for as long as the statements exist,
 * across restarts, and it is a key cursor (the next page starts after that statement), never an offset.
 */
public record MoreToken(Map<String, Deque<String>> params, long cursor) {
    private static final String CURSOR = "\u0000cursor";

    public String encode() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Deque<String>> e : new TreeMap<>(params).entrySet()) {
            for (String v : e.getValue()) {
                b.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                        .append(URLEncoder.encode(v, StandardCharsets.UTF_8)).append('&');
            }
        }
        b.append(URLEncoder.encode(CURSOR, StandardCharsets.UTF_8)).append('=').append(cursor);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    public static MoreToken decode(String token) {
        try {
            Map<String, Deque<String>> params = QueryParameters.parse(
                    new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
            Deque<String> cursors = params.remove(CURSOR);
            long cursor = cursors == null || cursors.size() != 1 ? -1 : NonNegativeIntegers.parse(cursors.getFirst());
            if (cursor <= 0) {
                throw new IllegalArgumentException("no cursor");
            }
            return new MoreToken(params, cursor);
        } catch (RuntimeException e) {
            throw new XapiException("path", "more.invalid", "this more link is not one Cairn issued");
        }
    }
}
