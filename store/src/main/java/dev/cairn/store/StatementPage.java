package dev.cairn.store;

import java.util.Arrays;
import java.util.List;

/**
 * One page of statements in their exact stored form with their sequence numbers, and whether there are more after
 * it (a {@code more} link continues after {@link #lastSeq()}).
 */
public record StatementPage(List<byte[]> statements, long[] seqs, boolean more) {
    static final StatementPage EMPTY = new StatementPage(List.of(), new long[0], false);

    /** The sequence number of the page's last statement (0 for an empty page). */
    public long lastSeq() {
        return seqs.length == 0 ? 0 : seqs[seqs.length - 1];
    }

    /** The first {@code n} statements of this page; when that leaves some out, there are more after them. */
    public StatementPage first(int n) {
        return n == statements.size() ? this
                : new StatementPage(statements.subList(0, n), Arrays.copyOf(seqs, n), true);
    }
}
