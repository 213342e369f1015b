package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CI variant of the invariant table (issue 19), against real {@code cairn serve} processes on SQLite and
 * PostgreSQL: the concurrent-write rows with fewer read-modify-writes than the full run, and two kill -9 trials per
 * acknowledgement mode instead of twenty, each followed by the replay comparison.
 */
class InvariantsTest {
    @Test
    void everyInvariantRowHoldsOnBothDialects() throws Exception {
        List<InvariantRow> rows = Invariants.run(new String[] {"--clients", "12", "--increments", "5", "--racers", "16",
                "--trials", "2"}, System.out);
        assertEquals(16, rows.size(), rows.toString());
        for (InvariantRow r : rows) {
            assertTrue(r.holds(), r.line());
        }
    }
}
