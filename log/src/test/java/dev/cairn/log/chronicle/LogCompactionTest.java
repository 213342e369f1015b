package dev.cairn.log.chronicle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.DocumentWritten;
import dev.cairn.log.EntryVoided;
import dev.cairn.log.Event;
import dev.cairn.log.EventCodec;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.xapi.DocumentKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction writes the closed cycles that hold an erasure's padding again without it: every entry keeps its index
 * and reads the same, the cycles without padding and the last one are left as they are, and the log goes on.
 */
class LogCompactionTest {
    private static final long DAY = TimeUnit.DAYS.toMillis(1);

    @TempDir
    Path dir;

    private static StoredStatement statement(int i) {
        UUID id = new UUID(7, i);
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:learner-" + i + "@example.com\"},\"verb\":"
                + "{\"id\":\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\"},\"result\":"
                + "{\"response\":\"" + "a long free-text answer ".repeat(20) + "\"}}";
        return new StoredStatement(id, 1_000 + i, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code entries} entries of three statements (and a document) into the cycle of {@code daysAgo}. */
    private void writeCycle(int daysAgo, int first, int entries) {
        long at = System.currentTimeMillis() - daysAgo * DAY;
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).blockSize(ChronicleLog.BLOCK_SIZE)
                .timeProvider(new SetTimeProvider(TimeUnit.MILLISECONDS.toNanos(at))).build();
             ExcerptAppender a = q.createAppender()) {
            for (int e = 0; e < entries; e++) {
                int n = first + 3 * e;
                Event event = e == 1 ? new DocumentWritten(new DocumentKey(DocumentKey.Kind.STATE, "http://example.com/a",
                        "mbox:mailto:learner@example.com", "", "s" + n), "text/plain",
                        ("progress " + n).repeat(30).getBytes(StandardCharsets.UTF_8), "etag", at)
                        : new StatementsStored(List.of(statement(n), statement(n + 1), statement(n + 2)));
                try (var dc = a.writingDocument()) {
                    EventCodec.encode(event, dc.wire().bytes());
                }
            }
        }
    }

    /** Every entry as its index and a description of its event that compares its statements' bytes. */
    private Map<Long, String> read() {
        Map<Long, String> out = new LinkedHashMap<>();
        try (ChronicleLog log = ChronicleLog.open(dir); LogTailer t = log.tailer(-1)) {
            for (LogEntry e; (e = t.next()) != null; ) {
                out.put(e.position(), describe(e.event()));
            }
        }
        return out;
    }

    private static String describe(Event event) {
        if (event instanceof StatementsStored s) {
            StringBuilder b = new StringBuilder("statements");
            for (StoredStatement st : s.statements()) {
                b.append(' ').append(st.id()).append('@').append(st.storedMillis()).append('=')
                        .append(new String(st.json(), StandardCharsets.UTF_8));
            }
            return b.toString();
        }
        return event instanceof EntryVoided ? "void" : event.getClass().getSimpleName();
    }

    private List<Long> indexes() {
        return new ArrayList<>(read().keySet());
    }

    @Test
    void closedCyclesLoseTheirPaddingAndEveryEntryKeepsItsIndexAndContent() {
        writeCycle(3, 0, 4);
        writeCycle(2, 100, 4);
        writeCycle(0, 200, 2); // today: the cycle an appender writes to
        List<Long> all = indexes();
        Map<Long, Event> erasure = new LinkedHashMap<>();
        erasure.put(all.get(0), new StatementsStored(List.of(StoredStatement.erased(new UUID(7, 0), 1_000),
                statement(1), StoredStatement.erased(new UUID(7, 2), 1_002))));
        erasure.put(all.get(1), EntryVoided.INSTANCE);
        erasure.put(all.get(8), new StatementsStored(List.of(StoredStatement.erased(new UUID(7, 200), 1_200),
                statement(201), statement(202))));
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            log.rewrite(erasure);
        }
        Map<Long, String> erased = read();

        LogCompaction.Result r = LogCompaction.compactClosedCycles(dir);

        assertEquals(1, r.cycles(), "only the closed cycle with padding: " + r);
        assertEquals(4, r.entries());
        assertTrue(r.bytesBefore() - r.bytesAfter() > 2 * statement(0).json().length, "two statements' bytes and a "
                + "document's given back: " + r);
        assertEquals(erased, read(), "the same entries at the same indexes");
        assertEquals(0, LogCompaction.compactClosedCycles(dir).cycles(), "nothing left to give back");
    }

    @Test
    void theLogGoesOnAfterACompaction() {
        writeCycle(1, 0, 3);
        writeCycle(0, 100, 1);
        List<Long> all = indexes();
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            log.rewrite(Map.of(all.get(0), new StatementsStored(List.of(StoredStatement.erased(new UUID(7, 0), 1_000),
                    StoredStatement.erased(new UUID(7, 1), 1_001), StoredStatement.erased(new UUID(7, 2), 1_002)))));
        }
        LogCompaction.compactClosedCycles(dir);
        long appended;
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender a = log.appender()) {
            appended = a.append(new StatementsStored(List.of(statement(500))));
            a.sync();
        }
        List<Long> after = indexes();
        assertEquals(all.size() + 1, after.size());
        assertEquals(appended, after.get(after.size() - 1));
        assertEquals(all, after.subList(0, all.size()));
    }

    @Test
    void aCompactionRefusesWhileARewriteIsPending() throws Exception {
        writeCycle(1, 0, 2);
        writeCycle(0, 100, 1);
        Files.writeString(dir.resolve(LogRewrite.PLAN), "");
        assertThrows(IllegalStateException.class, () -> LogCompaction.compactClosedCycles(dir));
    }

    @Test
    void whatAKilledCompactionLeftIsRemoved() throws Exception {
        writeCycle(1, 0, 2);
        writeCycle(0, 100, 1);
        Path leftover = Files.createDirectory(dir.resolve("compact-123"));
        Files.writeString(leftover.resolve("x.cq4"), "half");
        LogCompaction.compactClosedCycles(dir);
        assertTrue(Files.notExists(leftover));
        assertEquals(3, indexes().size());
    }
}
