package dev.cairn.store;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;

/**
 * The match rows of one statement: a sorted set of entries, {@code key_id << 1 | scope}, as statement_match stores
 * them, kept with the statement as a blob of big-endian longs. It holds what the statement matches on its own and
 * what it inherits through its StatementRef, so a late referrer can copy it (all but the authority keys, which only
 * the statement itself matches) and a voided statement's rows can be deleted exactly.
 */
final class MatchKeys {
    static final MatchKeys EMPTY = new MatchKeys(new long[0]);
    /** Every match of a key: what verb, registration and related_agents/related_activities read. */
    static final int SCOPE_ALL = 0;
    /** The narrow matches of an agent or activity key (actor and object), repeated for the plain filters. */
    static final int SCOPE_NARROW = 1;

    private final long[] entries;

    private MatchKeys(long[] sortedDistinct) {
        this.entries = sortedDistinct;
    }

    static MatchKeys of(long[] entries, int count) {
        long[] e = Arrays.copyOf(entries, count);
        Arrays.sort(e);
        int n = 0;
        for (int i = 0; i < e.length; i++) {
            if (i == 0 || e[i] != e[i - 1]) {
                e[n++] = e[i];
            }
        }
        return new MatchKeys(n == e.length ? e : Arrays.copyOf(e, n));
    }

    /** Whether this set holds {@code entry}. */
    boolean contains(long entry) {
        return Arrays.binarySearch(entries, entry) >= 0;
    }

    static long entry(long keyId, int scope) {
        return keyId << 1 | scope;
    }

    /** The filter key of an entry. */
    static long keyId(long entry) {
        return entry >>> 1;
    }

    /** The statement_match row of an entry that holds a sequence number's match: 64 sequence numbers to a row. */
    static long block(long seq) {
        return seq >>> 6;
    }

    /** The bit of a sequence number in its row's bits. */
    static long bit(long seq) {
        return 1L << (seq & 63);
    }

    /** The sequence number of a row's bit 0. */
    static long firstSeq(long block) {
        return block << 6;
    }

    int size() {
        return entries.length;
    }

    long get(int i) {
        return entries[i];
    }

    boolean isEmpty() {
        return entries.length == 0;
    }

    MatchKeys union(MatchKeys other) {
        long[] out = new long[entries.length + other.entries.length];
        System.arraycopy(entries, 0, out, 0, entries.length);
        System.arraycopy(other.entries, 0, out, entries.length, other.entries.length);
        return of(out, out.length);
    }

    /** This set without the entries of these filter keys (either scope). */
    MatchKeys withoutKeys(Set<Long> keyIds) {
        long[] out = new long[entries.length];
        int n = 0;
        for (long e : entries) {
            if (!keyIds.contains(keyId(e))) {
                out[n++] = e;
            }
        }
        return n == entries.length ? this : new MatchKeys(Arrays.copyOf(out, n));
    }

    /** The entries of this set that {@code other} lacks. */
    MatchKeys minus(MatchKeys other) {
        long[] out = new long[entries.length];
        int n = 0;
        for (long e : entries) {
            if (Arrays.binarySearch(other.entries, e) < 0) {
                out[n++] = e;
            }
        }
        return n == 0 ? EMPTY : new MatchKeys(Arrays.copyOf(out, n));
    }

    byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(entries.length * 8);
        for (long e : entries) {
            b.putLong(e);
        }
        return b.array();
    }

    static MatchKeys fromBytes(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long[] e = new long[bytes.length / 8];
        for (int i = 0; i < e.length; i++) {
            e[i] = b.getLong();
        }
        return new MatchKeys(e);
    }
}
