package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;
import org.postgresql.PGConnection;

/**
 * The match rows of the open transaction, written together. Matches are most of what projection writes (a dozen per
 * statement); statement_match keeps 64 consecutive sequence numbers of an entry in one row, a bit each, so the
 * matches are sorted by (entry, seq), folded into one row per (entry, block), and each row is merged into the stored
 * one, if any, by OR-ing its bits. On SQLite rows go {@value #ROWS_PER_INSERT} to an INSERT (a row inserted alone
 * costs the driver a bind-step-reset round of native calls). On PostgreSQL a merge costs the server about twice an
 * insert's work (an index probe before the insert), so the rows of blocks no earlier flush can have written, nearly
 * all of them, are loaded with a binary COPY, and the others are merged in one statement that takes them as arrays.
 */
final class PendingMatches {
    static final int ROWS_PER_INSERT = 250;

    /** PostgreSQL's COPY of new rows and merge of the others; null on SQLite ({@link #one}, {@link #many}). */
    private final BinaryCopy copy;
    private final PreparedStatement arrays;
    private final PreparedStatement one;
    private final PreparedStatement many;
    /** The PostgreSQL driver's connection, which takes primitive arrays (sent in binary); null on SQLite. */
    private final PGConnection pg;
    /** {@link MatchKeys} entries ({@code key_id << 1 | scope}) and the sequence numbers they match, by match. */
    private long[] entries = new long[1024];
    private long[] seqs = new long[1024];
    private int size;
    /** The bits of each folded row ({@link #fold}), whose entry and block are in {@link #entries} and {@link #seqs}. */
    private long[] bits = new long[0];

    PendingMatches(Connection c, Database db) throws SQLException {
        String upsert = db.sql("upsert_matches");
        if (db.dialect() == Dialect.POSTGRESQL) {
            pg = c.unwrap(PGConnection.class);
            copy = new BinaryCopy(c, db.sql("copy_matches"));
            arrays = c.prepareStatement(upsert);
            one = null;
            many = null;
        } else {
            pg = null;
            copy = null;
            arrays = null;
            one = c.prepareStatement(upsert.replace("{rows}", "(?, ?, ?)"));
            many = c.prepareStatement(upsert.replace("{rows}",
                    "(?, ?, ?)" + ", (?, ?, ?)".repeat(ROWS_PER_INSERT - 1)));
        }
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
        if (copy != null) {
            copyAndMerge(rows, lastStoredBlock);
        } else {
            upsert(rows);
        }
        clear();
    }

    /** PostgreSQL: rows of blocks after {@code lastStoredBlock} by COPY, the others merged as arrays. */
    private void copyAndMerge(int rows, long lastStoredBlock) throws SQLException {
        int merged = 0;
        for (int i = 0; i < rows; i++) {
            if (seqs[i] > lastStoredBlock) {
                copy.row(3).int8(entries[i]).int8(seqs[i]).int8(bits[i]);
            } else {
                entries[merged] = entries[i];
                seqs[merged] = seqs[i];
                bits[merged++] = bits[i];
            }
        }
        copy.send();
        if (merged > 0) {
            arrays.setArray(1, pg.createArrayOf("int8", Arrays.copyOf(entries, merged)));
            arrays.setArray(2, pg.createArrayOf("int8", Arrays.copyOf(seqs, merged)));
            arrays.setArray(3, pg.createArrayOf("int8", Arrays.copyOf(bits, merged)));
            arrays.executeUpdate();
        }
    }

    /** SQLite: every row merged, {@value #ROWS_PER_INSERT} to a statement and the rest one by one. */
    private void upsert(int rows) throws SQLException {
        int i = 0;
        for (; i + ROWS_PER_INSERT <= rows; i += ROWS_PER_INSERT) {
            for (int j = 0; j < ROWS_PER_INSERT; j++) {
                bind(many, 3 * j, i + j);
            }
            many.addBatch();
        }
        if (i > 0) {
            many.executeBatch();
        }
        if (i < rows) {
            for (; i < rows; i++) {
                bind(one, 0, i);
                one.addBatch();
            }
            one.executeBatch();
        }
    }

    /** Forgets the pending matches (the transaction was rolled back). */
    void clear() {
        size = 0;
        if (copy != null) {
            copy.clear();
        }
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

    private void bind(PreparedStatement insert, int at, int row) throws SQLException {
        insert.setLong(at + 1, entries[row]);
        insert.setLong(at + 2, seqs[row]);
        insert.setLong(at + 3, bits[row]);
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
