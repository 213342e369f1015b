package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the sequence numbers every filter of a statement query matches, in the query's order, from statement_match:
 * one ordered range of the first filter's rows, read a chunk at a time, each further filter read only at the blocks
 * that chunk holds and AND-ed into its bits. Every row read has a match, so a single filter's page reads at most one
 * row per statement it returns (fewer where a row holds several).
 */
final class MatchScan {
    /** First-filter rows read at a time when further filters may reject some of them (at most an IN list's worth). */
    static final int CHUNK = 256;
    /** Rows a single filter's first read takes: a page of a common key needs only a few. */
    static final int FIRST_CHUNK = 32;

    private MatchScan() {
    }

    /**
     * Up to {@code want} sequence numbers in the open range ({@code lo}, {@code hi}) matched by every entry,
     * ascending or descending.
     */
    static long[] seqs(Connection c, Database db, List<Long> entries, long lo, long hi, boolean ascending, int want)
            throws SQLException {
        if (hi - lo < 2) {
            return new long[0];
        }
        long[] out = new long[want];
        int found = 0;
        long minBlock = MatchKeys.block(lo + 1);
        long maxBlock = MatchKeys.block(hi - 1);
        long next = ascending ? minBlock : maxBlock;
        long[] blocks = new long[Math.max(CHUNK, want + 2)];
        long[] bits = new long[blocks.length];
        int reads = 0;
        try (PreparedStatement ps = c.prepareStatement(db.sql("match_blocks")
                .replace("{dir}", ascending ? "ASC" : "DESC").replace("{from}", ascending ? ">=" : "<="))) {
            boolean end = false;
            while (found < want && !end) {
                int chunk = chunk(entries.size(), reads++, want - found);
                ps.setLong(1, entries.get(0));
                ps.setLong(2, next);
                ps.setInt(3, chunk);
                int rows = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long block = rs.getLong(1);
                        if (block < minBlock || block > maxBlock) {
                            end = true; // past the range's far end
                            break;
                        }
                        blocks[rows] = block;
                        bits[rows++] = rs.getLong(2);
                    }
                }
                for (int f = 1; f < entries.size(); f++) {
                    intersect(c, db, entries.get(f), blocks, bits, rows);
                }
                for (int r = 0; r < rows && found < want; r++) {
                    found = collect(bits[r] & inRange(blocks[r], lo, hi), blocks[r], ascending, out, found, want);
                }
                end |= rows < chunk;
                if (rows > 0) {
                    next = ascending ? blocks[rows - 1] + 1 : blocks[rows - 1] - 1;
                }
            }
        }
        return Arrays.copyOf(out, found);
    }

    /**
     * How many rows the next read takes. A single filter's rows each add at least one sequence number, bar the two
     * at the range's ends that the bounds may empty: after a short first read, the second takes all that can be
     * needed.
     */
    private static int chunk(int filters, int reads, int missing) {
        if (filters > 1) {
            return CHUNK;
        }
        return reads == 0 ? Math.min(missing + 2, FIRST_CHUNK) : missing + 2;
    }

    /** Keeps in each row's bits only what {@code entry} also matches there. */
    private static void intersect(Connection c, Database db, long entry, long[] blocks, long[] bits, int rows)
            throws SQLException {
        if (rows == 0) {
            return;
        }
        Map<Long, Long> other = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(db.sqlIn("match_blocks_at", rows))) {
            ps.setLong(1, entry);
            for (int r = 0; r < rows; r++) {
                ps.setLong(r + 2, blocks[r]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    other.put(rs.getLong(1), rs.getLong(2));
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            bits[r] &= other.getOrDefault(blocks[r], 0L);
        }
    }

    /** The bits of {@code block} whose sequence numbers lie in the open range ({@code lo}, {@code hi}). */
    static long inRange(long block, long lo, long hi) {
        long first = MatchKeys.firstSeq(block);
        long lowest = Math.max(lo + 1 - first, 0);
        long highest = Math.min(hi - 1 - first, 63);
        if (lowest > highest) {
            return 0;
        }
        return (-1L << lowest) & (-1L >>> (63 - highest));
    }

    /** Appends the sequence numbers of {@code bits} in {@code block}, in order, until {@code want} are found. */
    private static int collect(long bits, long block, boolean ascending, long[] out, int found, int want) {
        long first = MatchKeys.firstSeq(block);
        while (bits != 0 && found < want) {
            int i = ascending ? Long.numberOfTrailingZeros(bits) : 63 - Long.numberOfLeadingZeros(bits);
            out[found++] = first + i;
            bits &= ~(1L << i);
        }
        return found;
    }
}
