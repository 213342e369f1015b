package dev.cairn.ingest;

import dev.cairn.store.StoredState;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Bloom filter of the ids of every statement the log holds: the stored ones, loaded once on a background
 * thread when the sequencer starts, and every one the sequencer recovers or appends. When it says an id is absent,
 * the sequencer needs no store lookup for it, and most new statements carry fresh ids, so most ring batches read
 * nothing from the database. Until the load has finished it says nothing ({@link #mightContain} is always true).
 * A false positive only costs a lookup. It grows in layers: once the newest layer holds the ids it was sized for
 * (about 1% false positives), a layer twice its size takes the next ones, so an import of any size keeps the
 * rate near 1% per layer instead of letting one layer fill up until it proves nothing absent.
 */
final class StoredIdFilter {
    private static final Logger LOG = LoggerFactory.getLogger(StoredIdFilter.class);
    private static final int HASHES = 7;
    /** 10 bits per id gives about 1% false positives with 7 hashes. */
    private static final int BITS_PER_ID = 10;
    private static final long MIN_IDS = 1 << 20;

    /** Oldest first; only the newest takes new ids. Replaced, never changed, when a layer is added. */
    private volatile Layer[] layers;
    private volatile boolean loaded;

    /** @param expectedIds how many ids the first layer should hold with ~1% false positives (at least 1M) */
    StoredIdFilter(long expectedIds) {
        layers = new Layer[] {new Layer(Math.max(MIN_IDS, expectedIds))};
    }

    /** Called from two threads at once: the loader and the sequencer. */
    void add(UUID id) {
        long h1 = firstHash(id);
        long h2 = secondHash(h1, id);
        Layer[] all = layers;
        Layer newest = all[all.length - 1];
        if (newest.added.incrementAndGet() > newest.capacity) {
            newest = grow(newest);
        }
        newest.add(h1, h2);
    }

    /** The layer after {@code full}, made now unless another thread made it first. */
    private synchronized Layer grow(Layer full) {
        Layer[] all = layers;
        Layer newest = all[all.length - 1];
        if (newest == full) {
            newest = new Layer(full.capacity * 2);
            Layer[] more = java.util.Arrays.copyOf(all, all.length + 1);
            more[all.length] = newest;
            layers = more;
        }
        newest.added.incrementAndGet();
        return newest;
    }

    /** False only when {@code id} is certainly not in the log. */
    boolean mightContain(UUID id) {
        if (!loaded) {
            return true;
        }
        long h1 = firstHash(id);
        long h2 = secondHash(h1, id);
        for (Layer layer : layers) {
            if (layer.mightContain(h1, h2)) {
                return true;
            }
        }
        return false;
    }

    /** One Bloom filter of a fixed size. */
    private static final class Layer {
        /** Set from two threads at once: bits only ever go from 0 to 1. */
        private final AtomicLongArray words;
        private final long bitMask;
        /** How many ids it holds with ~1% false positives. */
        final long capacity;
        final AtomicLong added = new AtomicLong();

        Layer(long capacity) {
            long bits = Long.highestOneBit(capacity * BITS_PER_ID * 2 - 1);
            this.words = new AtomicLongArray((int) Math.min(1L << 30, bits >>> 6));
            this.bitMask = ((long) words.length() << 6) - 1;
            this.capacity = capacity;
        }

        void add(long h1, long h2) {
            for (int i = 0; i < HASHES; i++) {
                long bit = (h1 + i * h2) & bitMask;
                int word = (int) (bit >>> 6);
                long mask = 1L << bit;
                long old;
                while (((old = words.get(word)) & mask) == 0 && !words.compareAndSet(word, old, old | mask)) {
                    Thread.onSpinWait();
                }
            }
        }

        boolean mightContain(long h1, long h2) {
            for (int i = 0; i < HASHES; i++) {
                long bit = (h1 + i * h2) & bitMask;
                if ((words.get((int) (bit >>> 6)) & (1L << bit)) == 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Adds every id the store holds, on a new thread; the filter answers once that is done. Start it only after the
     * ids of the log entries beyond the store's watermark have been added, so that together they are everything.
     */
    void loadInBackground(StoredState known) {
        Thread t = new Thread(() -> {
            long start = System.nanoTime();
            long[] n = {0};
            try {
                known.forEachStoredId(id -> {
                    add(id);
                    n[0]++;
                });
                markLoaded();
                LOG.info("sequencer: {} stored statement ids loaded into the id filter in {} ms", n[0],
                        (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException e) {
                LOG.warn("sequencer: the id filter could not be loaded ({}); every id is looked up in the store",
                        e.getMessage());
            }
        }, "cairn-id-filter-load");
        t.setDaemon(true);
        t.start();
    }

    /** From now on the filter holds every id the log holds, and answers. */
    void markLoaded() {
        loaded = true;
    }

    // The HASHES bit positions of an id are h1 + i * h2 (double hashing); h2 is odd so they never coincide.
    private static long firstHash(UUID id) {
        return IdHash.of(id);
    }

    private static long secondHash(long firstHash, UUID id) {
        return IdHash.mix(firstHash ^ id.getLeastSignificantBits()) | 1;
    }
}
