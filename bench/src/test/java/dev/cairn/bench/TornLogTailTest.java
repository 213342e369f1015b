package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cairn.bench.TornLogTail.Cut;
import dev.cairn.bench.TornLogTail.Where;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link TornLogTail} finds to cut after a kill. A log records a synced entry from its first sync on, or from a
 * start on a log that holds entries (the start's repair records the last one); a server killed before either, on a
 * new log, leaves nothing synced, which is what a torn-tail trial must not do.
 */
class TornLogTailTest {
    @TempDir
    Path dir;

    private static StatementsStored event() {
        byte[] json = "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8);
        return new StatementsStored(List.of(new StoredStatement(UUID.randomUUID(), 1, json)));
    }

    /** A server's start on the log (its repair), {@code synced} appends and a sync, then {@code unsynced} more. */
    private void serve(int synced, int unsynced) {
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            log.repairTornTail();
            try (LogAppender appender = log.appender()) {
                for (int i = 0; i < synced; i++) {
                    appender.append(event());
                }
                appender.sync();
                for (int i = 0; i < unsynced; i++) {
                    appender.append(event());
                }
            } // closed without a sync, as a kill leaves it
        }
    }

    @Test
    void aNewLogKilledBeforeItsFirstSyncHasNothingSyncedToCutAfter() throws Exception {
        serve(0, 3);
        Cut cut = TornLogTail.cut(dir, new SplittableRandom(19));
        assertEquals(Where.NOTHING_SYNCED, cut.where());
    }

    @Test
    void aStartOnALogThatHoldsEntriesRecordsTheLastOneAsSynced() throws Exception {
        serve(0, 3);
        serve(0, 0);
        Cut cut = TornLogTail.cut(dir, new SplittableRandom(19));
        assertEquals(Where.AFTER_THE_LAST_ENTRY, cut.where());
        assertEquals(0, cut.unsynced());
    }

    @Test
    void aKillAfterASyncIsCutAfterTheSyncedEntry() throws Exception {
        serve(2, 3);
        Cut cut = TornLogTail.cut(dir, new SplittableRandom(19));
        assertNotEquals(Where.NOTHING_SYNCED, cut.where());
        assertEquals(3, cut.unsynced());
    }
}
