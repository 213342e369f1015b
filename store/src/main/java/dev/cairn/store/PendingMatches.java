package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The match rows of the open transaction, written together in index order. Match rows are most of what projection
 * writes (a dozen per statement), sorted by (entry, seq) so that consecutive rows land on the same B-tree page.
 * On SQLite a row inserted alone costs the driver a bind-step-reset round of native calls, so rows go
 * {@value #ROWS_PER_INSERT} to an INSERT (2.6 µs per row inserted alone in arrival order, 1.7 µs this way); on
 * PostgreSQL they are loaded with one binary COPY, which spares the server an INSERT's work per row (projection
 * 20% faster than with multi-row INSERTs).
 */
final class PendingMatches {
    static final int ROWS_PER_INSERT = 250;

    /** PostgreSQL's COPY, or null where the rows are inserted ({@link #one}, {@link #many}). */
    private final BinaryCopy copy;
    private final PreparedStatement one;
    private final PreparedStatement many;
    /** {@link MatchKeys} entries ({@code key_id << 1 | scope}) and the sequence numbers they match, by row. */
    private long[] entries = new long[1024];
    private long[] seqs = new long[1024];
    private int size;

    PendingMatches(Connection c, Database db) throws SQLException {
        if (db.dialect() == Dialect.POSTGRESQL) {
            copy = new BinaryCopy(c, db.sql("copy_matches"));
            one = null;
            many = null;
        } else {
            copy = null;
            String insertOne = db.sql("insert_match"); // INSERT ... VALUES (?, ?): entry, sequence number
            one = c.prepareStatement(insertOne);
            many = c.prepareStatement(insertOne + ", (?, ?)".repeat(ROWS_PER_INSERT - 1));
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

    /** Inserts every pending row. */
    void flush() throws SQLException {
        if (size == 0) {
            return;
        }
        sort();
        if (copy != null) {
            for (int i = 0; i < size; i++) {
                copy.row(2).int8(entries[i]).int8(seqs[i]);
            }
            copy.send();
            clear();
            return;
        }
        int i = 0;
        for (; i + ROWS_PER_INSERT <= size; i += ROWS_PER_INSERT) {
            for (int j = 0; j < ROWS_PER_INSERT; j++) {
                bind(many, 2 * j, i + j);
            }
            many.addBatch();
        }
        if (i > 0) {
            many.executeBatch();
        }
        if (i < size) {
            for (; i < size; i++) {
                bind(one, 0, i);
                one.addBatch();
            }
            one.executeBatch();
        }
        clear();
    }

    /** Forgets the pending rows (the transaction was rolled back). */
    void clear() {
        size = 0;
        if (copy != null) {
            copy.clear();
        }
    }

    private void bind(PreparedStatement insert, int at, int row) throws SQLException {
        insert.setLong(at + 1, entries[row]);
        insert.setLong(at + 2, seqs[row]);
    }

    /**
     * Sorts the rows by (entry, seq), each packed into one long as entry and seq offset; rows whose values do not
     * fit in 63 bits together (more than ~2^40 keys over a span of ~2^20 statements) keep their arrival order.
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
}
