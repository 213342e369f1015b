package dev.cairn.log.chronicle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
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

/** What {@link EventLog}'s users rely on, through the interface only: positions are never computed with. */
class EventLogContractTest {
    @TempDir
    Path dir;

    private static StatementsStored event() {
        UUID id = UUID.randomUUID();
        return new StatementsStored(List.of(new StoredStatement(id, 1_700_000_000_000L,
                ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8))));
    }

    private static UUID id(LogEntry e) {
        return ((StatementsStored) e.event()).statements().get(0).id();
    }

    @Test
    void aTailerAfterTheLastPositionSeesExactlyTheNextAppend() {
        try (EventLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            for (int i = 0; i < 3; i++) {
                appender.append(event());
            }
            appender.sync();
            try (LogTailer tailer = log.tailer(log.lastPosition())) {
                assertNull(tailer.next());
                StatementsStored next = event();
                long position = appender.append(next);
                appender.sync();
                LogEntry read = tailer.next();
                assertEquals(position, read.position());
                assertEquals(next.statements().get(0).id(), id(read));
                assertNull(tailer.next());
            }
        }
    }

    @Test
    void aFilteredTailerDecodesOnlyTheEntriesWhoseBytesItAcceptsAndSeesTheEnd() {
        try (EventLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            List<StatementsStored> events = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                events.add(event());
                appender.append(events.get(i));
            }
            appender.sync();
            byte[] wanted = events.get(3).statements().get(0).id().toString().getBytes(StandardCharsets.UTF_8);
            dev.cairn.xapi.AnyOf any = dev.cairn.xapi.AnyOf.of(List.of(wanted));
            try (LogTailer tailer = log.tailer(EventLog.START)) {
                LogEntry found = tailer.next(any::in);
                assertEquals(events.get(3).statements().get(0).id(), id(found));
                assertNull(tailer.next(any::in), "none after it");
            }
            try (LogTailer tailer = log.tailer(EventLog.START)) {
                assertEquals(events.get(0).statements().get(0).id(), id(tailer.next((bytes, length) -> true)));
                assertEquals(events.get(1).statements().get(0).id(), id(tailer.next()), "the tailer goes on after it");
            }
        }
    }

    @Test
    void positionsGrowInLogOrderAfterStart() {
        try (EventLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            assertEquals(EventLog.START, log.lastPosition());
            long previous = EventLog.START;
            for (int i = 0; i < 5; i++) {
                long position = appender.append(event());
                assertTrue(position > previous, position + " after " + previous);
                assertEquals(position, log.lastPosition());
                previous = position;
            }
        }
    }

    @Test
    void entriesAfterAPositionAreAsManyAsATailerAfterItReads() {
        try (EventLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            List<Long> positions = new ArrayList<>(List.of(EventLog.START));
            for (int i = 0; i < 4; i++) {
                positions.add(appender.append(event()));
            }
            appender.sync();
            for (long after : positions) {
                long read = 0;
                try (LogTailer tailer = log.tailer(after)) {
                    while (tailer.next() != null) {
                        read++;
                    }
                }
                assertEquals(read, log.entriesAfter(after), "after " + after);
            }
        }
    }
}
