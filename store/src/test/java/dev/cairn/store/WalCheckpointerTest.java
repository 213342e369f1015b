package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's write-ahead log stays bounded under a writer that commits transaction after transaction, a stream of
 * small commits is checkpointed once per interval, not once per commit, and the log file is emptied once the writer
 * is idle (a disk under the reserve gets its space back; reads after a bulk load look through no old frames), but not
 * while a transaction of the writer is open, however long it takes; a stream of small commits writes the log file
 * from its start again once it is checkpointed, rather than growing it.
 */
class WalCheckpointerTest {
    private static final long MAX_WAL_BYTES = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void aWriterThatNeverPausesStillHasItsLogEmptied() throws Exception {
        Path file = dir.resolve("cairn.db");
        Path wal = dir.resolve("cairn.db-wal");
        try (Database db = Database.open("jdbc:sqlite:" + file); Connection writer = db.newWriter()) {
            writer.setAutoCommit(false);
            try (Statement s = writer.createStatement()) {
                s.execute("CREATE TABLE filler (b BLOB)");
            }
            writer.commit();
            byte[] blob = new byte[64 * 1024];
            new Random(7).nextBytes(blob);
            long largest = 0;
            try (WalCheckpointer checkpointer = WalCheckpointer.start(db, writer, MAX_WAL_BYTES,
                    WalCheckpointer.RESTART_BYTES);
                 PreparedStatement insert = writer.prepareStatement("INSERT INTO filler (b) VALUES (?)")) {
                for (int i = 0; i < 400; i++) { // 25 MB, one commit right after another, as a replay commits
                    checkpointer.beforeBegin();
                    insert.setBytes(1, blob);
                    insert.executeUpdate();
                    writer.commit();
                    checkpointer.afterCommit();
                    largest = Math.max(largest, Files.size(wal));
                }
            }
            // The limit plus one commit (64 KB of blob pages); the writer wrote 25 MB in all.
            assertTrue(largest < MAX_WAL_BYTES + (256 << 10), "the write-ahead log grew to " + largest + " bytes");
        }
    }

    @Test
    void smallCommitsAreCheckpointedOncePerIntervalAndTheLastOneToo() throws Exception {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db")); Connection writer = db.newWriter()) {
            writer.setAutoCommit(false);
            try (Statement s = writer.createStatement()) {
                s.execute("CREATE TABLE counter (n INTEGER)");
            }
            writer.commit();
            try (WalCheckpointer checkpointer = WalCheckpointer.start(db, writer);
                 PreparedStatement insert = writer.prepareStatement("INSERT INTO counter (n) VALUES (?)")) {
                long start = System.nanoTime();
                int commits = 300;
                for (int i = 0; i < commits; i++) { // what single-statement writes leave: one small commit each
                    insert.setInt(1, i);
                    insert.executeUpdate();
                    writer.commit();
                    checkpointer.afterCommit();
                }
                long intervals = (System.nanoTime() - start) / WalCheckpointer.INTERVAL_NANOS;
                long during = checkpointer.passiveCheckpoints();
                assertTrue(during <= intervals + 1, during + " checkpoints during " + commits + " commits that took "
                        + intervals + " whole intervals");
                insert.setInt(1, commits);
                insert.executeUpdate();
                writer.commit();
                checkpointer.afterCommit();
                long deadline = System.nanoTime() + 5 * WalCheckpointer.INTERVAL_NANOS;
                while (checkpointer.passiveCheckpoints() == during && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertTrue(checkpointer.passiveCheckpoints() > during, "a commit after the last checkpoint is "
                        + "checkpointed once the interval has passed");
            }
        }
    }

    @Test
    void aStreamOfSmallCommitsWritesTheLogFromItsStartAgainRatherThanGrowingIt() throws Exception {
        Path wal = dir.resolve("cairn.db-wal");
        long restartBytes = 1 << 20;
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db")); Connection writer = db.newWriter()) {
            createFiller(writer);
            long largest = 0;
            try (WalCheckpointer checkpointer = WalCheckpointer.start(db, writer, 1L << 30, restartBytes)) {
                long end = System.nanoTime() + 8 * WalCheckpointer.INTERVAL_NANOS;
                while (System.nanoTime() < end) { // a commit every 10 ms: the log is never checkpointed to its end
                    writeCommits(writer, checkpointer, 1);
                    largest = Math.max(largest, Files.size(wal));
                    Thread.sleep(10);
                }
                assertTrue(checkpointer.restarts() > 0, "the log was started over");
            }
            // 8 intervals of commits wrote ~25 MB; between two checkpoints ~3 MB of them, on top of the restart size.
            assertTrue(largest < restartBytes + (6 << 20), "the write-ahead log grew to " + largest + " bytes");
        }
    }

    @Test
    void aReaderOfOldFramesDoesNotMakeEachTransactionWaitForTheLogToBeEmptied() throws Exception {
        Path file = dir.resolve("cairn.db");
        Path wal = dir.resolve("cairn.db-wal");
        try (Database db = Database.open("jdbc:sqlite:" + file); Connection writer = db.newWriter();
             Connection reader = db.newWriter()) {
            createFiller(writer);
            try (WalCheckpointer checkpointer = WalCheckpointer.start(db, writer, MAX_WAL_BYTES,
                    WalCheckpointer.RESTART_BYTES)) {
                reader.setAutoCommit(false);
                try (Statement s = reader.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                        "SELECT count(*) FROM filler")) { // a long query: its snapshot keeps the frames after it
                    rs.next();
                    long start = System.nanoTime();
                    writeCommits(writer, checkpointer, 30); // ~2 MB, past the limit
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    assertTrue(millis < 5_000, "30 transactions took " + millis + " ms beside a reader");
                    assertTrue(Files.size(wal) > MAX_WAL_BYTES, "the log cannot be emptied under the reader");
                }
                reader.commit();
                writeCommits(writer, checkpointer, 1);
                checkpointer.beforeBegin();
                assertTrue(Files.size(wal) < MAX_WAL_BYTES, "emptied once the reader is done: " + Files.size(wal));
            }
        }
    }

    /** The table the tests fill, committed; the writer's auto-commit off, as the projector's is. */
    private static void createFiller(Connection writer) throws Exception {
        writer.setAutoCommit(false);
        try (Statement s = writer.createStatement()) {
            s.execute("CREATE TABLE filler (b BLOB)");
        }
        writer.commit();
    }

    /** Writes {@code commits} transactions of 64 KB each, as the projector does. */
    private static void writeCommits(Connection writer, WalCheckpointer checkpointer, int commits) throws Exception {
        byte[] blob = new byte[64 * 1024];
        new Random(11).nextBytes(blob);
        try (PreparedStatement insert = writer.prepareStatement("INSERT INTO filler (b) VALUES (?)")) {
            for (int i = 0; i < commits; i++) {
                checkpointer.beforeBegin();
                checkpointer.afterBegin();
                insert.setBytes(1, blob);
                insert.executeUpdate();
                writer.commit();
                checkpointer.afterCommit();
            }
        }
    }

    private static void awaitWal(Path wal, boolean empty, long nanos) throws Exception {
        long deadline = System.nanoTime() + nanos;
        while ((Files.size(wal) == 0) != empty && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Test
    void theLogFileIsEmptiedOnceTheWriterHasCommittedNothingForASecond() throws Exception {
        Path wal = dir.resolve("cairn.db-wal");
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db")); Connection writer = db.newWriter()) {
            createFiller(writer);
            try (WalCheckpointer checkpointer = WalCheckpointer.start(db, writer)) {
                writeCommits(writer, checkpointer, 40); // ~2.6 MB of frames, under the size limit
                long grown = Files.size(wal);
                assertTrue(grown > (1 << 20), "the log file holds the commits: " + grown + " bytes");
                awaitWal(wal, true, 4 * WalCheckpointer.IDLE_NANOS);
                assertEquals(0, Files.size(wal), "emptied once idle");
            }
        }
    }

    @Test
    void aTransactionThatStaysOpenIsNotIdleAndItsLogIsLeftAlone() throws Exception {
        Path wal = dir.resolve("cairn.db-wal");
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db")); Connection writer = db.newWriter()) {
            createFiller(writer);
            try (WalCheckpointer checkpointer = WalCheckpointer.start(db, writer)) {
                writeCommits(writer, checkpointer, 10);
                checkpointer.afterBegin(); // a long transaction (a replay's batch on a large store) begins
                try (Statement s = writer.createStatement()) {
                    s.execute("INSERT INTO filler (b) VALUES (x'00')");
                }
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(3 * WalCheckpointer.IDLE_NANOS));
                assertTrue(Files.size(wal) > 0, "no emptying while the writer's transaction is open");
                writer.commit();
                checkpointer.afterCommit();
                awaitWal(wal, true, 4 * WalCheckpointer.IDLE_NANOS);
                assertEquals(0, Files.size(wal), "emptied once idle after the commit");
            }
        }
    }
}
