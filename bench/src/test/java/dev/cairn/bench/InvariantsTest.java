package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CI variant of the invariant table (issue 19), against real Cairn processes on SQLite and PostgreSQL: each group
 * of checks with fewer clients and trials than the full run (one kill per database and mode where the full run makes
 * twenty: CI must stay under 20 minutes, and bench/report runs every trial).
 */
class InvariantsTest {
    private static void everyRowHolds(String check, int expectedRows, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--checks", check));
        args.addAll(List.of(more));
        List<InvariantRow> rows = Invariants.run(args.toArray(String[]::new), System.out);
        assertEquals(expectedRows, rows.size(), rows.toString());
        for (InvariantRow r : rows) {
            assertTrue(r.holds(), r.line());
        }
    }

    @Test
    void aGroupOfChecksThatStopsIsARowThatDoesNotHoldSayingWhy() {
        InvariantCheck stops = (dialect, dir, o) -> {
            throw new IllegalStateException("cairn query did not start:\ncannot open database a|b: [SQLITE_BUSY]");
        };
        List<InvariantRow> rows = Invariants.runCheck(stops, "split", "sqlite", Path.of("unused"), null);
        assertEquals(1, rows.size());
        assertFalse(rows.get(0).holds());
        assertEquals("| sqlite | split | the checks run to their end | stopped: IllegalStateException: cairn query did "
                + "not start: cannot open database a\\|b: [SQLITE_BUSY] | ❌ |", rows.get(0).line());
    }

    @Test
    void concurrentWritesLoseNoUpdateAndStoreOneStatementPerId() throws Exception {
        everyRowHolds("concurrency", 8, "--clients", "12", "--increments", "5", "--racers", "16");
    }

    @Test
    void killsUnderLoadLoseNoAcknowledgedBatchAndReplayEqualsLive() throws Exception {
        everyRowHolds("durability", 8, "--trials", "1"); // per ack mode and database; the full report runs 20
    }

    @Test
    void killsMidUploadKeepEveryAcknowledgedAttachmentByteIdentical() throws Exception {
        everyRowHolds("attachments", 4, "--trials", "1");
    }

    @Test
    void killsOfIngestProjectorOrQueryLoseNoAcknowledgedBatchAndReplayEqualsLive() throws Exception {
        everyRowHolds("split", 4, "--trials", "1"); // kills ingest; ops SplitProcessTest kills each
    }

    @Test
    void aLogCutAfterItsSyncedEntryRestartsWholeAndLosesNoAcknowledgedBatch() throws Exception {
        everyRowHolds("torn-tail", 6, "--trials", "1");
    }

    @Test
    void aFullDiskUnderLoadGets507UntilSpaceIsFreedAndLosesNothing() throws Exception {
        everyRowHolds("full-disk", 10, "--trials", "1");
    }

    /** PostgreSQL only: SQLite has no database server to restart, and gives no rows. */
    @Test
    void databaseRestartsUnderLoadLoseNothingAndCairnRecoversByItself() throws Exception {
        everyRowHolds("database-restart", 5, "--trials", "1");
    }

    @Test
    void replayAfterAMixedLoadEqualsTheLiveTablesAndAnswersTheSameReads() throws Exception {
        everyRowHolds("mixed-rebuild", 6, "--rounds", "4");
    }

    /** SQLite only: the space its write-ahead log holds comes back when the disk is under the reserve. */
    @Test
    void theSpaceOfSqlitesWriteAheadLogIsGivenBackWhenTheDiskIsUnderTheReserve() throws Exception {
        everyRowHolds("wal-space", 1);
    }

    @Test
    void passwordGuessingCostsLittleCpuAndDoesNotSlowVerifiedClients() throws Exception {
        everyRowHolds("authentication", 10, "--attempts", "1000", "--guessers", "48");
    }

    @Test
    void aRevokedCredentialIsRefusedEverywhereWithinFiveSecondsAndItsRefusedWritesStoreNothing() throws Exception {
        everyRowHolds("revocation", 4);
    }

    @Test
    void statementsReadMineNeverReceivesAnotherCredentialsStatementOrAttachment() throws Exception {
        everyRowHolds("read-mine", 8, "--mine-statements", "6");
    }
}
