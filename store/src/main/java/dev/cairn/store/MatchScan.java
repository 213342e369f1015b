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
 * Finds the sequence numbers every filter of a statement query matches, in the query's order, from statement_match
 * (and statement_match_recent where the dialect keeps one, {@link Dialect#keepsRecentMatches}: read alike, OR-ed in):
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
        boolean keepsRecent = db.dialect().keepsRecentMatches();
        long[] recentBlocks = keepsRecent ? new long[blocks.length] : null;
        long[] recentBits = keepsRecent ? new long[blocks.length] : null;
        int reads = 0;
        String dir = ascending ? "ASC" : "DESC";
        String from = ascending ? ">=" : "<=";
        try (PreparedStatement ps = c.prepareStatement(db.sql("match_blocks").replace("{dir}", dir)
                .replace("{from}", from));
             PreparedStatement recent = keepsRecent ? c.prepareStatement(
                     db.sql("recent_match_blocks").replace("{dir}", dir).replace("{from}", from)) : null;
             PreparedStatement recentAt = keepsRecent && entries.size() > 1
                     ? c.prepareStatement(db.sql("recent_match_blocks_between")) : null) {
            boolean end = false;
            while (found < want && !end) {
                int chunk = chunk(entries.size(), reads++, want - found);
                // statement_match_recent first: rows only move from it into statement_match (a merge, committed
                // between two reads of this autocommit connection), so the second read finds what the first missed.
                int recentRows = recent == null ? 0
                        : read(recent, entries.get(0), next, chunk, recentBlocks, recentBits);
                int rows = read(ps, entries.get(0), next, chunk, blocks, bits);
                rows = merge(blocks, bits, rows, recentBlocks, recentBits, recentRows, ascending, chunk);
                end = rows < chunk; // neither table has more
                for (int r = 0; r < rows; r++) {
                    if (blocks[r] < minBlock || blocks[r] > maxBlock) {
                        rows = r; // past the range's far end
                        end = true;
                        break;
                    }
                }
                for (int f = 1; f < entries.size(); f++) {
                    intersect(c, db, recentAt, entries.get(f), blocks, bits, rows);
                }
                for (int r = 0; r < rows && found < want; r++) {
                    found = collect(bits[r] & inRange(blocks[r], lo, hi), blocks[r], ascending, out, found, want);
                }
                if (rows > 0) {
                    next = ascending ? blocks[rows - 1] + 1 : blocks[rows - 1] - 1;
                }
            }
        }
        return Arrays.copyOf(out, found);
    }

    /** Reads up to {@code limit} rows of {@code entry} from block {@code from} on into {@code blocks}, {@code bits}. */
    private static int read(PreparedStatement ps, long entry, long from, int limit, long[] blocks, long[] bits)
            throws SQLException {
        ps.setLong(1, entry);
        ps.setLong(2, from);
        ps.setInt(3, limit);
        int rows = 0;
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                blocks[rows] = rs.getLong(1);
                bits[rows++] = rs.getLong(2);
            }
        }
        return rows;
    }

    /**
     * Merges rows of statement_match_recent ({@code more}) into rows of statement_match ({@code blocks}, {@code bits}),
     * both in the read's order, a block found in both OR-ed into one row, and keeps the first {@code limit} in
     * {@code blocks} and {@code bits}. The first {@code limit} blocks of the two tables together are among the first
     * {@code limit} of each, so one read of {@code limit} rows from each is enough.
     */
    static int merge(long[] blocks, long[] bits, int rows, long[] moreBlocks, long[] moreBits, int moreRows,
                     boolean ascending, int limit) {
        if (moreRows == 0) {
            return rows;
        }
        long[] mergedBlocks = new long[Math.min(rows + moreRows, limit)];
        long[] mergedBits = new long[mergedBlocks.length];
        int a = 0;
        int b = 0;
        int n = 0;
        while (n < mergedBlocks.length && (a < rows || b < moreRows)) {
            long cmp = a == rows ? 1 : b == moreRows ? -1 : ascending ? Long.compare(blocks[a], moreBlocks[b])
                    : Long.compare(moreBlocks[b], blocks[a]);
            if (cmp < 0) {
                mergedBlocks[n] = blocks[a];
                mergedBits[n++] = bits[a++];
            } else if (cmp > 0) {
                mergedBlocks[n] = moreBlocks[b];
                mergedBits[n++] = moreBits[b++];
            } else {
                mergedBlocks[n] = blocks[a];
                mergedBits[n++] = bits[a++] | moreBits[b++];
            }
        }
        System.arraycopy(mergedBlocks, 0, blocks, 0, n);
        System.arraycopy(mergedBits, 0, bits, 0, n);
        return n;
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

    /**
     * Keeps in each row's bits only what {@code entry} also matches there, in statement_match and, with
     * {@code recentAt} (recent_match_blocks_between), in statement_match_recent.
     */
    private static void intersect(Connection c, Database db, PreparedStatement recentAt, long entry, long[] blocks,
                                  long[] bits, int rows) throws SQLException {
        if (rows == 0) {
            return;
        }
        Map<Long, Long> other = new HashMap<>();
        if (recentAt != null) { // first, as in seqs
            recentAt.setLong(1, entry);
            recentAt.setLong(2, Math.min(blocks[0], blocks[rows - 1]));
            recentAt.setLong(3, Math.max(blocks[0], blocks[rows - 1]));
            readInto(recentAt, other);
        }
        try (PreparedStatement ps = c.prepareStatement(db.sqlIn("match_blocks_at", rows))) {
            ps.setLong(1, entry);
            for (int r = 0; r < rows; r++) {
                ps.setLong(r + 2, blocks[r]);
            }
            readInto(ps, other);
        }
        for (int r = 0; r < rows; r++) {
            bits[r] &= other.getOrDefault(blocks[r], 0L);
        }
    }

    /** OR-s each (block, bits) row {@code ps} reads into {@code other}. */
    private static void readInto(PreparedStatement ps, Map<Long, Long> other) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                other.merge(rs.getLong(1), rs.getLong(2), (x, y) -> x | y);
            }
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
