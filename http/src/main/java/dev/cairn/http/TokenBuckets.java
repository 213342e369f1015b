package dev.cairn.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token bucket for each of at most {@code identities} identities (client addresses, keys): a bucket holds up to
 * {@code burst} tokens and regains one every {@code refillNanos}. The least recently used identity is forgotten
 * past the bound, so a client sending endless new identities holds bounded memory.
 *
 * <p>A bucket is kept as the time at which it is full again (the generic cell rate algorithm): one long per
 * identity, no timer.
 */
final class TokenBuckets<K> {
    private final int burst;
    private final long refillNanos;
    private final Map<K, Long> fullAt;

    TokenBuckets(int burst, long refillNanos, int identities) {
        this.burst = burst;
        this.refillNanos = refillNanos;
        this.fullAt = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, Long> eldest) {
                return size() > identities;
            }
        };
    }

    /** The nanoseconds until {@code id}'s bucket holds a token: 0 when it holds one now. */
    synchronized long waitFor(K id, long now) {
        Long full = fullAt.get(id);
        return full == null ? 0 : Math.max(0, Math.max(full, now) + refillNanos - now - burst * refillNanos);
    }

    /** Takes a token from {@code id}'s bucket, into debt if it has none (attempts already running when it emptied). */
    synchronized void take(K id, long now) {
        fullAt.merge(id, now + refillNanos, (full, fresh) -> Math.max(full, now) + refillNanos);
    }
}
