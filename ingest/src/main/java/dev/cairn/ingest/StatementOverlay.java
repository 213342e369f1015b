package dev.cairn.ingest;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

/**
 * The statements the sequencer appended that the projector may not have applied yet: with the store read at
 * watermark W, this overlay holds everything after W, so together they are everything the log holds.
 * It keeps only each id's log index (the statement itself is read back from the log on the rare id collision), in
 * tables of plain longs: an import of millions of statements with no projector running holds about 50 bytes per
 * statement and makes no object per id.
 *
 * <p>Ids go into segments of {@link #SEGMENT_IDS}, in log order; a segment leaves once the watermark passes its last
 * entry. Until then it may also answer for entries the store already holds, which is still true of the log.
 * A lookup probes every segment, newest first, so the sequencer asks only about ids its {@link StoredIdFilter} does
 * not prove absent.
 */
final class StatementOverlay {
    static final int SEGMENT_IDS = 1 << 16;

    private final ArrayDeque<Segment> segments = new ArrayDeque<>();
    private int size;

    void add(long logIndex, List<UUID> ids) {
        for (UUID id : ids) {
            Segment last = segments.peekLast();
            if (last == null || last.size == SEGMENT_IDS) {
                last = new Segment();
                segments.addLast(last);
            }
            if (last.put(id.getMostSignificantBits(), id.getLeastSignificantBits(), logIndex)) {
                size++;
            }
        }
    }

    /** The log index of the entry holding {@code id}, or -1 when the overlay does not know it. */
    long indexOf(UUID id) {
        long hi = id.getMostSignificantBits();
        long lo = id.getLeastSignificantBits();
        for (Iterator<Segment> newestFirst = segments.descendingIterator(); newestFirst.hasNext(); ) {
            long index = newestFirst.next().get(hi, lo);
            if (index >= 0) {
                return index;
            }
        }
        return -1;
    }

    /** Forgets the segments whose entries the store holds as of {@code watermarkIndex}. */
    void prune(long watermarkIndex) {
        while (!segments.isEmpty() && segments.peekFirst().lastIndex <= watermarkIndex) {
            size -= segments.pollFirst().size;
        }
    }

    /** Ids held, counting those of a segment the watermark has partly passed. */
    int size() {
        return size;
    }

    /** An open-addressing table (linear probing, at most half full) of (id high bits, id low bits, log index + 1). */
    private static final class Segment {
        private long[] slots = new long[3 * 16];
        private int mask = 15;
        int size;
        long lastIndex = -1;

        /** False when the id was held already (its index is replaced). */
        boolean put(long hi, long lo, long logIndex) {
            if (2 * (size + 1) > mask + 1) {
                grow();
            }
            lastIndex = Math.max(lastIndex, logIndex);
            for (int i = hash(hi, lo) & mask; ; i = (i + 1) & mask) {
                int s = 3 * i;
                if (slots[s + 2] == 0) {
                    slots[s] = hi;
                    slots[s + 1] = lo;
                    slots[s + 2] = logIndex + 1; // 0 marks a free slot: a position is never negative (EventLog)
                    size++;
                    return true;
                }
                if (slots[s] == hi && slots[s + 1] == lo) {
                    slots[s + 2] = logIndex + 1;
                    return false;
                }
            }
        }

        long get(long hi, long lo) {
            for (int i = hash(hi, lo) & mask; ; i = (i + 1) & mask) {
                int s = 3 * i;
                if (slots[s + 2] == 0) {
                    return -1;
                }
                if (slots[s] == hi && slots[s + 1] == lo) {
                    return slots[s + 2] - 1;
                }
            }
        }

        private void grow() {
            long[] old = slots;
            slots = new long[old.length * 2];
            mask = mask * 2 + 1;
            size = 0;
            for (int s = 0; s < old.length; s += 3) {
                if (old[s + 2] != 0) {
                    put(old[s], old[s + 1], old[s + 2] - 1);
                }
            }
        }

        private static int hash(long hi, long lo) {
            return (int) IdHash.of(hi, lo);
        }
    }
}
