package dev.cairn.log.chronicle;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.log.EntryTooLargeException;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChronicleLogTest {
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
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender(); LogTailer tailer = log.tailer(-1)) {
            StatementsStored written = event(3);
            long index = appender.append(written);
            appender.sync();
            LogEntry read = tailer.next();
            assertEquals(index, read.position());
            StatementsStored back = (StatementsStored) read.event();
            assertEquals(3, back.statements().size());
            for (int i = 0; i < 3; i++) {
                assertEquals(written.statements().get(i).id(), back.statements().get(i).id());
                assertEquals(written.statements().get(i).storedMillis(), back.statements().get(i).storedMillis());
                assertArrayEquals(written.statements().get(i).json(), back.statements().get(i).json());
            }
            assertNull(tailer.next());
            assertEquals(index, log.lastPosition());
        }
    }

    @Test
    void aTailerStartsAfterTheGivenIndex() {
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            long first = appender.append(event(1));
            long second = appender.append(event(2));
            long third = appender.append(event(3));
            appender.sync();
            try (LogTailer tailer = log.tailer(first)) {
                assertEquals(second, tailer.next().position());
                assertEquals(third, tailer.next().position());
                assertNull(tailer.next());
            }
        }
    }

    @Test
    void aLogSurvivesReopening() {
        long index;
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            index = appender.append(event(2));
            appender.sync();
        }
        try (ChronicleLog log = ChronicleLog.open(dir); LogTailer tailer = log.tailer(-1)) {
            LogEntry e = tailer.next();
            assertEquals(index, e.position());
            assertEquals(2, ((StatementsStored) e.event()).statements().size());
        }
    }

    @Test
    void anEmptyLogHasLastPositionMinusOne() {
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            assertEquals(-1, log.lastPosition());
        }
    }

    /** A statement event whose encoded form takes exactly {@code length} bytes. */
    private static StatementsStored eventOfLength(long length) {
        byte[] json = new byte[(int) length - 38]; // format 2: format, checksum, type, count, one statement header
        java.util.Arrays.fill(json, (byte) 'x');
        return new StatementsStored(List.of(new StoredStatement(UUID.randomUUID(), 1, json)));
    }

    @Test
    void anEventOfTheLargestEntrySizeIsAppendedAndReadBack() {
        try (ChronicleLog log = ChronicleLog.open(dir, 1 << 20); LogAppender appender = log.appender();
             LogTailer tailer = log.tailer(-1)) {
            StatementsStored largest = eventOfLength(log.maxEntryBytes());
            long index = appender.append(largest);
            appender.sync();
            assertArrayEquals(largest.statements().get(0).json(),
                    ((StatementsStored) tailer.next().event()).statements().get(0).json());
            assertEquals(index, log.lastPosition());
        }
    }

    @Test
    void anEventLargerThanAnEntryIsRefusedAndLeavesTheLogAsItWas() {
        try (ChronicleLog log = ChronicleLog.open(dir, 1 << 20); LogAppender appender = log.appender();
             LogTailer tailer = log.tailer(-1)) {
            long first = appender.append(event(1));
            EntryTooLargeException e = assertThrows(EntryTooLargeException.class,
                    () -> appender.append(eventOfLength(log.maxEntryBytes() + 1)));
            assertEquals(log.maxEntryBytes() + 1, e.length());
            assertEquals(first, log.lastPosition());
            long next = appender.append(event(2));
            appender.sync();
            assertEquals(first, tailer.next().position());
            assertEquals(next, tailer.next().position());
            assertEquals(2, ((StatementsStored) log.tailer(first).next().event()).statements().size());
            assertNull(tailer.next());
        }
    }

    @Test
    void theDefaultLogHoldsEntriesOfAQuarterOfItsBlock() {
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            assertEquals(ChronicleLog.BLOCK_SIZE / 4, log.maxEntryBytes());
        }
    }

    /** Logs written before the block size grew from Chronicle's default of 64 MiB read and append as before. */
    @Test
    void aLogWrittenWithTheFormerBlockSizeReopensWithTheCurrentOne() {
        long old;
        try (ChronicleLog log = ChronicleLog.open(dir, 64L << 20); LogAppender appender = log.appender()) {
            old = appender.append(event(3));
            appender.sync();
        }
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender(); LogTailer tailer = log.tailer(-1)) {
            long large = appender.append(eventOfLength(20 << 20));
            appender.sync();
            assertEquals(old, tailer.next().position());
            LogEntry e = tailer.next();
            assertEquals(large, e.position());
            assertEquals((20 << 20) - 38, ((StatementsStored) e.event()).statements().get(0).json().length);
        }
    }
}
