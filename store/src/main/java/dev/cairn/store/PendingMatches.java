package dev.cairn.store;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The match rows of the open transaction, written together. Matches are most of what projection writes (a dozen per
 * statement); statement_match keeps 64 consecutive sequence numbers of an entry in one row, a bit each, so the
 * matches are sorted by (entry, seq), folded into one row per (entry, block), and each row is merged into the stored
 * one, if any, by OR-ing its bits ({@link WriterBackend#writeMatches}, as each database does it best).
 */
final class PendingMatches {
    private final WriterBackend backend;
    /** {@link MatchKeys} entries ({@code key_id << 1 | scope}) and the sequence numbers they match, by match. */
    private long[] entries = new long[1024];
    private long[] seqs = new long[1024];
    private int size;
    /** The bits of each folded row ({@link #fold}), whose entry and block are in {@link #entries} and {@link #seqs}. */
    private long[] bits = new long[0];

    PendingMatches(WriterBackend backend) {
        this.backend = backend;
    }

    void add(long entry, long seq) {
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, size * 2);
            seqs = Arrays.copyOf(seqs, size * 2);
        }
        entries[size] = entry;
        seqs[size++] = seq;
    }

    /**
     * Writes every pending match.
     *
     * @param lastStoredBlock the highest block an earlier flush may have written rows in: rows after it are new
     */
    void flush(long lastStoredBlock) throws SQLException {
        if (size == 0) {
            return;
        }
        sort();
        int rows = fold();
        backend.writeMatches(entries, seqs, bits, rows, lastStoredBlock);
        size = 0;
    }

    /** Forgets the pending matches (the transaction was rolled back). */
    void clear() {
        size = 0;
    }

    /**
     * Folds the sorted matches into rows in place: row k is (entries[k], seqs[k] as its block, bits[k]).
     *
     * @return the number of rows
     */
    private int fold() {
        if (bits.length < size) {
            bits = new long[entries.length];
        }
        int rows = 0;
        for (int i = 0; i < size; i++) {
            long block = MatchKeys.block(seqs[i]);
            if (rows > 0 && entries[rows - 1] == entries[i] && seqs[rows - 1] == block) {
                bits[rows - 1] |= MatchKeys.bit(seqs[i]);
            } else {
                bits[rows] = MatchKeys.bit(seqs[i]);
                entries[rows] = entries[i];
                seqs[rows++] = block;
            }
        }
        return rows;
    }

    /**
     * Sorts the matches by (entry, seq), each packed into one long as entry and seq offset when they fit in 63 bits
     * together (they do unless ~2^40 keys meet a span of ~2^20 statements); else by comparing pairs.
     */
    private void sort() {
        long maxEntry = 0;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = 0;
        for (int i = 0; i < size; i++) {
            maxEntry = Math.max(maxEntry, entries[i]);
            minSeq = Math.min(minSeq, seqs[i]);
            maxSeq = Math.max(maxSeq, seqs[i]);
        }
        int seqBits = 64 - Long.numberOfLeadingZeros(maxSeq - minSeq);
        if (64 - Long.numberOfLeadingZeros(maxEntry) + seqBits > 63) {
            sortPairs();
            return;
        }
        for (int i = 0; i < size; i++) {
            entries[i] = entries[i] << seqBits | (seqs[i] - minSeq);
        }
        Arrays.sort(entries, 0, size);
        long seqMask = (1L << seqBits) - 1;
        for (int i = 0; i < size; i++) {
            seqs[i] = (entries[i] & seqMask) + minSeq;
            entries[i] >>>= seqBits;
        }
    }

    private void sortPairs() {
        long[][] pairs = new long[size][];
        for (int i = 0; i < size; i++) {
            pairs[i] = new long[] {entries[i], seqs[i]};
        }
        Arrays.sort(pairs, Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
        for (int i = 0; i < size; i++) {
            entries[i] = pairs[i][0];
            seqs[i] = pairs[i][1];
        }
    }
}
