package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CI variant of the invariant table (issue 19): the concurrent-write rows against a real {@code cairn serve} in a
 * child JVM, on SQLite and PostgreSQL, with fewer read-modify-writes than the full run.
 */
class InvariantsTest {
    @Test
    void concurrentWritersLoseNoUpdateWithIfMatchAndStoreOneStatementPerId() throws Exception {
        List<InvariantRow> rows = Invariants.run(new String[] {"--clients", "12", "--increments", "5", "--racers", "16"},
                System.out);
        assertEquals(8, rows.size(), rows.toString());
        for (InvariantRow r : rows) {
            assertTrue(r.holds(), r.line());
        }
    }
}
