package dev.cairn.log.chronicle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.EntryVoided;
import dev.cairn.log.Event;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogCheck;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The torn-tail rule: what follows the last synced position may be repaired, nothing before it. */
class TornTailTest {
    @TempDir
    Path dir;

    /** Where an entry's body is in its cycle file. */
    private record Place(File file, long position, int length) {
    }

    private Place place(long index) {
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).build(); ExcerptTailer t = q.createTailer()) {
            assertTrue(t.moveToIndex(index));
            try (DocumentContext dc = t.readingDocument()) {
                assertTrue(dc.isPresent());
                return new Place(t.currentFile(), dc.wire().bytes().readPosition(), (int) dc.wire().bytes().readRemaining());
            }
        }
    }

    /** Appends {@code synced} entries and syncs them, then {@code unsynced} more; returns their indexes. */
    private List<Long> write(int synced, int unsynced) {
        List<Long> indexes = new ArrayList<>();
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            for (int i = 0; i < synced; i++) {
                indexes.add(appender.append(FullDiskTest.event(1_000 + i)));
            }
            appender.sync();
            for (int i = 0; i < unsynced; i++) {
                indexes.add(appender.append(FullDiskTest.event(3_000 + i)));
            }
        }
        return indexes;
    }

    private static void zero(Place p) throws Exception {
        try (FileChannel ch = FileChannel.open(p.file().toPath(), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(p.length()), p.position());
        }
    }

    private static List<Event> readAll(EventLog log) {
        List<Event> events = new ArrayList<>();
        try (LogTailer tailer = log.tailer(-1)) {
            LogEntry e;
            while ((e = tailer.next()) != null) {
                events.add(e.event());
            }
        }
        return events;
    }

    @Test
    void anEntryWithACompleteHeaderAndAZeroedBodyAfterTheSyncedPositionIsVoidedByTheNextWriter() throws Exception {
        List<Long> indexes = write(5, 2);
        zero(place(indexes.get(6)));
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            assertEquals(indexes.get(4), log.syncedPosition());
            assertEquals(1, log.tornTail().size(), log.tornTail().toString());
            assertEquals(1, log.check().tornTail().size());
            BadLogEntryException e = assertThrows(BadLogEntryException.class, () -> readAll(log));
            assertEquals(indexes.get(6), e.position());
            long next;
            try (LogAppender appender = log.appender()) {
                assertTrue(log.tornTail().isEmpty());
                assertEquals(indexes.get(6), log.syncedPosition(), "the repaired tail is synced");
                next = appender.append(FullDiskTest.event(10));
                appender.sync();
            }
            List<Event> events = readAll(log);
            assertEquals(8, events.size());
            assertInstanceOf(EntryVoided.class, events.get(6));
            assertInstanceOf(StatementsStored.class, events.get(7));
            try (LogTailer tailer = log.tailer(indexes.get(6))) {
                assertEquals(next, tailer.next().position(), "the index finds the entry after the voided one");
                assertNull(tailer.next());
            }
            LogCheck check = log.check();
            assertTrue(check.clean(), check.toString());
            assertEquals(1, check.voided());
        }
    }

    /**
     * A cycle file cut at a random byte after the synced position (what a crash can leave of pages never synced): the
     * next writer voids a cut entry whose header survived, and refuses a log whose end it cannot reach (an append
     * would land where no reader reads); the check command's repair makes either whole, keeping every synced entry.
     */
    @Test
    void aFileCutAtARandomByteAfterTheSyncedPositionIsRecognisedAndRepaired() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int round = 0; round < 8; round++) {
            cutRound(random, "seed " + seed + " round " + round);
        }
    }

    private void cutRound(Random random, String what) throws Exception {
        List<Long> indexes = rewrite(5, 3);
        Place firstUnsynced = place(indexes.get(5));
        Place last = place(indexes.get(7));
        long cut = firstUnsynced.position() - 4
                + random.nextInt((int) (last.position() + last.length() - firstUnsynced.position() + 4));
        cutAndRecover(last.file(), cut, indexes.get(4), what);
    }

    /**
     * A cut in the header of the only entry after the synced position (what a crash leaves when the page holding it was
     * never written back) leaves no entry to read after the synced one, but Chronicle's write position still points
     * at the lost header: the cut must be recognised, and an append after it must be readable.
     */
    @Test
    void aCutInTheHeaderOfTheOnlyEntryAfterTheSyncedPositionIsRecognisedAndRepaired() throws Exception {
        for (int into = 0; into < 4; into++) {
            List<Long> indexes = rewrite(5, 1);
            Place unsynced = place(indexes.get(5));
            cutAndRecover(unsynced.file(), unsynced.position() - 4 + into, indexes.get(4),
                    "cut " + into + " bytes into the header");
        }
    }

    /** Deletes the log's files and writes it again: {@code synced} entries synced, then {@code unsynced} more. */
    private List<Long> rewrite(int synced, int unsynced) {
        for (File f : dir.toFile().listFiles()) {
            if (f.isFile()) {
                f.delete();
            }
        }
        return write(synced, unsynced);
    }

    /**
     * Cuts {@code file} at {@code cut}, after the synced entry {@code synced} (the fifth), then checks that the cut is
     * recognised, that the next writer or the check command's repair makes the log whole, and that every synced entry
     * and the next append are read.
     */
    private void cutAndRecover(File file, long cut, long synced, String what) throws Exception {
        try (FileChannel ch = FileChannel.open(file.toPath(), StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            assertFalse(log.check().clean(), what + ": the cut is recognised");
        }
        boolean byTheWriter;
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            log.appender().close();
            byTheWriter = true;
        } catch (UnreadableEndException e) {
            assertTrue(e.getMessage().contains("cairn log check --truncate-torn-tail"), e.getMessage());
            byTheWriter = false;
        }
        if (!byTheWriter) {
            assertFalse(ChronicleLog.truncateTornTail(dir).isEmpty(), what);
        }
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            long next;
            try (LogAppender appender = log.appender()) {
                next = appender.append(FullDiskTest.event(10));
                appender.sync();
            }
            List<Event> events = readAll(log);
            for (int i = 0; i < 5; i++) {
                assertInstanceOf(StatementsStored.class, events.get(i), what);
            }
            assertInstanceOf(StatementsStored.class, events.get(events.size() - 1), what);
            assertEquals(next, log.lastPosition(), what);
            try (LogTailer tailer = log.tailer(synced)) {
                LogEntry e;
                long lastRead = -1;
                while ((e = tailer.next()) != null) {
                    lastRead = e.position();
                }
                assertEquals(next, lastRead, what + ": the new entry follows the synced ones");
            }
            LogCheck check = log.check();
            assertTrue(check.clean(), what + ": " + check);
        }
    }

    @Test
    void aBadEntryAtOrBeforeTheSyncedPositionIsReportedAndNeverVoided() throws Exception {
        List<Long> indexes = write(5, 0);
        Place third = place(indexes.get(2));
        zero(third);
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            try (LogAppender appender = log.appender()) {
                appender.append(FullDiskTest.event(10));
                appender.sync();
            }
            LogCheck check = log.check();
            assertEquals(1, check.damaged().size(), check.toString());
            assertTrue(check.damaged().get(0).contains(Long.toHexString(indexes.get(2))), check.toString());
            assertTrue(check.tornTail().isEmpty());
            BadLogEntryException e = assertThrows(BadLogEntryException.class, () -> readAll(log));
            assertEquals(indexes.get(2), e.position());
        }
    }

    @Test
    void aSyncedTailerStopsBeforeAnEntryThatIsNotSynced() {
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender();
             LogTailer tailer = log.syncedTailer(-1)) {
            long first = appender.append(FullDiskTest.event(10));
            appender.sync();
            long second = appender.append(FullDiskTest.event(10));
            assertEquals(first, tailer.next().position());
            assertNull(tailer.next(), "not synced yet");
            appender.sync();
            assertEquals(second, tailer.next().position());
        }
    }
}
