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

    /** Takes a token of {@code id}'s bucket: 0 when taken, else the nanoseconds until one is there. */
    synchronized long take(K id, long now) {
        long full = Math.max(fullAt.getOrDefault(id, now), now);
        long after = full + refillNanos;
        long over = after - now - burst * refillNanos;
        if (over > 0) {
            return over;
        }
        fullAt.put(id, after);
        return 0;
    }

    /** Gives back a token taken by {@link #take}. */
    synchronized void refund(K id) {
        fullAt.computeIfPresent(id, (k, full) -> full - refillNanos);
    }
}
