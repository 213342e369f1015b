package dev.cairn.log.chronicle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.MappedBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After {@link LogAppender#warmAhead()} the next entry is copied into pages already mapped writable, instead of
 * taking a page fault at each page, and the log reads as it did. Counted as the minor faults of this thread
 * ({@code minflt} of /proc/thread-self/stat).
 */
class PageWarmerTest {
    /** An entry of ~50 pages: a forwarding target's POST is ~170. */
    private static final int ENTRY = 200_000;

    @TempDir
    Path tmp;

    @Test
    void theNextEntryIsCopiedIntoPagesMappedAheadInsteadOfFaultingAtEachPage() throws Exception {
        try (ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender()) {
            List<StatementsStored> events = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                events.add(FullDiskTest.event(ENTRY));
            }
            for (int i = 0; i < 4; i++) { // past the start of the cycle file, which Chronicle maps and touches itself
                appender.append(events.get(i));
                appender.sync();
                appender.warmAhead(); // as far ahead as was appended since the last time: one entry
            }
            long before = minorFaults();
            appender.append(events.get(4));
            long warmed = minorFaults() - before;
            appender.sync();

            before = minorFaults();
            appender.append(events.get(5)); // no warmAhead since the last entry: its pages fault as they are reached
            long cold = minorFaults() - before;
            appender.sync();

            assertTrue(cold >= ENTRY / 4096 / 2, "an entry into pages not mapped ahead faulted " + cold + " times");
            assertTrue(warmed <= cold / 4, "after warmAhead an entry of " + ENTRY + " bytes faulted " + warmed
                    + " times; without it " + cold);
        }
    }

    @Test
    void warmingAheadChangesNothingTheLogHolds() throws Exception {
        List<StatementsStored> events = new ArrayList<>();
        try (ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender()) {
            for (int i = 0; i < 20; i++) {
                StatementsStored e = FullDiskTest.event(i % 2 == 0 ? ENTRY : 300);
                events.add(e);
                appender.append(e);
                appender.sync();
                appender.warmAhead();
            }
        }
        try (ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogTailer tailer = log.tailer(EventLog.START)) {
            for (StatementsStored e : events) {
                LogEntry read = tailer.next();
                StatementsStored got = (StatementsStored) read.event();
                assertEquals(e.statements().get(0).id(), got.statements().get(0).id());
                assertArrayEquals(e.statements().get(0).json(), got.statements().get(0).json());
            }
            assertEquals(null, tailer.next(), "nothing after the last entry: the warmed pages still hold zeros");
        }
    }

    /**
     * However much one batch appended (a hostile client's largest POSTs, say), warming reaches no further than the zeros
     * written ahead: the pages past them are left to fault when an entry reaches them, after they are written.
     */
    @Test
    void warmingStopsWhereTheZerosWrittenAheadEnd() throws Exception {
        Path path = tmp.resolve("mapped");
        long fileBytes = 1L << 20;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate((int) fileBytes), 0);
        }
        MappedBytes bytes = MappedBytes.mappedBytes(path.toFile(), fileBytes);
        try {
            for (long at = 0; at < fileBytes; at += Preallocation.PAGE) {
                bytes.writeByte(at, (byte) 0); // every page mapped, then written back, as the log's synced zeros are:
            }
            TornTail.sync(path.toFile()); // write-protected, so a write faults unless warming made the page writable
            bytes.writeLong(0L); // the "entry": its end is where warming starts
            long writtenTo = 16 * Preallocation.PAGE;
            PageWarmer warmer = new PageWarmer();
            warmer.appended(bytes, bytes.writePosition(), 100L << 20);
            warmer.warm(writtenTo);

            long before = minorFaults();
            for (long at = 0; at < writtenTo; at += Preallocation.PAGE) {
                bytes.writeByte(at + 8, (byte) 0);
            }
            long inside = minorFaults() - before;
            before = minorFaults();
            for (long at = writtenTo; at < 3 * writtenTo; at += Preallocation.PAGE) {
                bytes.writeByte(at, (byte) 0);
            }
            long past = minorFaults() - before;
            assertTrue(inside <= 2, "the 16 warmed pages faulted " + inside + " times (16 without warming)");
            assertTrue(past >= 24, "the 32 pages past the zeros written ahead faulted " + past + " times: warmed");
        } finally {
            bytes.releaseLast();
        }
    }

    /** Minor page faults of this thread so far. */
    private static long minorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[7]); // minflt, the 10th field of the line
    }
}
