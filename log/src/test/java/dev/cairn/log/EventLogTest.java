package dev.cairn.log;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogTest {
    @TempDir
    Path dir;

    private static StatementsStored event(int n) {
        List<StoredStatement> s = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.add(new StoredStatement(UUID.randomUUID(), 1_700_000_000_000L + i,
                    ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8)));
        }
        return new StatementsStored(s);
    }

    @Test
    void anAppendedEventIsReadBackWithItsIndex() {
        try (EventLog log = EventLog.open(dir); LogAppender appender = log.appender(); LogTailer tailer = log.tailer(-1)) {
            StatementsStored written = event(3);
            long index = appender.append(written);
            appender.sync();
            LogEntry read = tailer.next();
            assertEquals(index, read.index());
            StatementsStored back = (StatementsStored) read.event();
            assertEquals(3, back.statements().size());
            for (int i = 0; i < 3; i++) {
                assertEquals(written.statements().get(i).id(), back.statements().get(i).id());
                assertEquals(written.statements().get(i).storedMillis(), back.statements().get(i).storedMillis());
                assertArrayEquals(written.statements().get(i).json(), back.statements().get(i).json());
            }
            assertNull(tailer.next());
            assertEquals(index, log.lastIndex());
        }
    }

    @Test
    void aTailerStartsAfterTheGivenIndex() {
        try (EventLog log = EventLog.open(dir); LogAppender appender = log.appender()) {
            long first = appender.append(event(1));
            long second = appender.append(event(2));
            long third = appender.append(event(3));
            appender.sync();
            try (LogTailer tailer = log.tailer(first)) {
                assertEquals(second, tailer.next().index());
                assertEquals(third, tailer.next().index());
                assertNull(tailer.next());
            }
        }
    }

    @Test
    void aLogSurvivesReopening() {
        long index;
        try (EventLog log = EventLog.open(dir); LogAppender appender = log.appender()) {
            index = appender.append(event(2));
            appender.sync();
        }
        try (EventLog log = EventLog.open(dir); LogTailer tailer = log.tailer(-1)) {
            LogEntry e = tailer.next();
            assertEquals(index, e.index());
            assertEquals(2, ((StatementsStored) e.event()).statements().size());
        }
    }

    @Test
    void anEmptyLogHasLastIndexMinusOne() {
        try (EventLog log = EventLog.open(dir)) {
            assertEquals(-1, log.lastIndex());
        }
    }

    @Test
    void anUnknownFormatIsRejectedWithTheIndex() {
        byte[] data = EventCodecTest.encoded(event(1));
        data[0] = 9;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EventCodecTest.decoded(data, 0x1234));
        assertTrue(e.getMessage().contains("1234"), e.getMessage());
        assertTrue(e.getMessage().contains("format 9"), e.getMessage());
    }

    /** A statement event whose encoded form takes exactly {@code length} bytes. */
    private static StatementsStored eventOfLength(long length) {
        byte[] json = new byte[(int) length - 38]; // format 2: format, checksum, type, count, one statement header
        java.util.Arrays.fill(json, (byte) 'x');
        return new StatementsStored(List.of(new StoredStatement(UUID.randomUUID(), 1, json)));
    }

    @Test
    void anEventOfTheLargestEntrySizeIsAppendedAndReadBack() {
        try (EventLog log = EventLog.open(dir, 1 << 20); LogAppender appender = log.appender();
             LogTailer tailer = log.tailer(-1)) {
            StatementsStored largest = eventOfLength(log.maxEntryBytes());
            long index = appender.append(largest);
            appender.sync();
            assertArrayEquals(largest.statements().get(0).json(),
                    ((StatementsStored) tailer.next().event()).statements().get(0).json());
            assertEquals(index, log.lastIndex());
        }
    }

    @Test
    void anEventLargerThanAnEntryIsRefusedAndLeavesTheLogAsItWas() {
        try (EventLog log = EventLog.open(dir, 1 << 20); LogAppender appender = log.appender();
             LogTailer tailer = log.tailer(-1)) {
            long first = appender.append(event(1));
            EntryTooLargeException e = assertThrows(EntryTooLargeException.class,
                    () -> appender.append(eventOfLength(log.maxEntryBytes() + 1)));
            assertEquals(log.maxEntryBytes() + 1, e.length());
            assertEquals(first, log.lastIndex());
            long next = appender.append(event(2));
            appender.sync();
            assertEquals(first, tailer.next().index());
            assertEquals(next, tailer.next().index());
            assertEquals(2, ((StatementsStored) log.tailer(first).next().event()).statements().size());
            assertNull(tailer.next());
        }
    }

    @Test
    void theDefaultLogHoldsEntriesOfAQuarterOfItsBlock() {
        try (EventLog log = EventLog.open(dir)) {
            assertEquals(EventLog.BLOCK_SIZE / 4, log.maxEntryBytes());
        }
    }

    /** Logs written before the block size grew from Chronicle's default of 64 MiB read and append as before. */
    @Test
    void aLogWrittenWithTheFormerBlockSizeReopensWithTheCurrentOne() {
        long old;
        try (EventLog log = EventLog.open(dir, 64L << 20); LogAppender appender = log.appender()) {
            old = appender.append(event(3));
            appender.sync();
        }
        try (EventLog log = EventLog.open(dir); LogAppender appender = log.appender(); LogTailer tailer = log.tailer(-1)) {
            long large = appender.append(eventOfLength(20 << 20));
            appender.sync();
            assertEquals(old, tailer.next().index());
            LogEntry e = tailer.next();
            assertEquals(large, e.index());
            assertEquals((20 << 20) - 38, ((StatementsStored) e.event()).statements().get(0).json().length);
        }
    }
}
