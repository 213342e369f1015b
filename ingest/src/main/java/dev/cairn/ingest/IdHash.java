package dev.cairn.ingest;

import java.util.UUID;

/** A 64-bit hash of a statement id that spreads ids that are not random (name-based, sequential or hand-made). */
final class IdHash {
    private IdHash() {
    }

    static long of(UUID id) {
        return of(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    static long of(long hi, long lo) {
        return mix(hi ^ lo * 0x9E3779B97F4A7C15L);
    }

    /** fmix64 of MurmurHash3. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53a87b5L;
        h ^= h >>> 33;
        return h;
    }
}
