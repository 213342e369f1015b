package dev.cairn.log.chronicle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.AttachmentContent;
import dev.cairn.log.EntryVoided;
import dev.cairn.log.Event;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries rewritten in place by an erasure: same places, same lengths, the old bytes gone, crash-safe. */
class LogRewriteTest {
    private static final String SECRET = "ada.lovelace@example.com";

    @TempDir
    Path dir;

    private static StoredStatement statement(int i, String who) {
        UUID id = new UUID(9, i);
        return new StoredStatement(id, 1_000 + i, ("{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:" + who
                + "\"},\"verb\":{\"id\":\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\"}}")
                .getBytes(StandardCharsets.UTF_8));
    }

    /** Five entries of two statements; the second and fourth have Ada's as their first, the fourth an attachment. */
    private List<Long> write() {
        List<Long> indexes = new ArrayList<>();
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            for (int e = 0; e < 5; e++) {
                List<StoredStatement> two = List.of(statement(2 * e, e % 2 == 1 ? SECRET : "b@example.com"),
                        statement(2 * e + 1, "c@example.com"));
                List<AttachmentContent> contents = e == 3 ? List.of(new AttachmentContent("ab12", "text/plain",
                        ("essay of " + SECRET).getBytes(StandardCharsets.UTF_8))) : List.of();
                indexes.add(appender.append(new StatementsStored(two, contents, true)));
            }
            appender.sync();
        }
        return indexes;
    }

    private List<LogEntry> read() {
        List<LogEntry> out = new ArrayList<>();
        try (ChronicleLog log = ChronicleLog.open(dir); LogTailer t = log.tailer(-1)) {
            for (LogEntry e; (e = t.next()) != null; ) {
                out.add(e);
            }
        }
        return out;
    }

    /** Whether any file of the log holds {@code text}. */
    private boolean anyFileHolds(String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                if (dev.cairn.xapi.AnyOf.of(List.of(needle)).in(Files.readAllBytes(p))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Ada's statements erased from entries 1 and 3 (the attachment with them); entry 2 voided. */
    private static Map<Long, Event> erasure(List<LogEntry> before) {
        Map<Long, Event> out = new java.util.LinkedHashMap<>();
        for (int e : new int[] {1, 3}) {
            List<StoredStatement> s = ((StatementsStored) before.get(e).event()).statements();
            out.put(before.get(e).position(), new StatementsStored(List.of(StoredStatement.erased(s.get(0).id(),
                    s.get(0).storedMillis()), s.get(1)), List.of(), true));
        }
        out.put(before.get(2).position(), EntryVoided.INSTANCE);
        return out;
    }

    @Test
    void rewrittenEntriesKeepTheirPlacesAndLengthsAndTheOthersTheirBytes() throws Exception {
        List<Long> indexes = write();
        List<LogEntry> before = read();
        assertTrue(anyFileHolds(SECRET));
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            log.rewrite(erasure(before));
        }
        List<LogEntry> after = read();
        assertEquals(indexes, after.stream().map(LogEntry::position).toList());
        for (int e = 0; e < 5; e++) {
            assertEquals(before.get(e).length(), after.get(e).length(), "entry " + e + " keeps its length");
        }
        for (int e : new int[] {0, 4}) {
            StatementsStored a = (StatementsStored) before.get(e).event();
            StatementsStored b = (StatementsStored) after.get(e).event();
            for (int i = 0; i < 2; i++) {
                assertArrayEquals(a.statements().get(i).json(), b.statements().get(i).json());
            }
        }
        StatementsStored third = (StatementsStored) after.get(3).event();
        assertTrue(third.statements().get(0).isErased());
        assertEquals(new UUID(9, 6), third.statements().get(0).id(), "an erased statement keeps its id");
        assertArrayEquals(((StatementsStored) before.get(3).event()).statements().get(1).json(),
                third.statements().get(1).json());
        assertTrue(third.attachments().isEmpty());
        assertInstanceOf(EntryVoided.class, after.get(2).event());
        assertFalse(anyFileHolds(SECRET), "no file of the log holds Ada's address");
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            long next = appender.append(new StatementsStored(List.of(statement(99, "d@example.com"))));
            appender.sync();
            assertEquals(indexes.get(4) + 1, next, "appending goes on after the last entry");
        }
        assertEquals(6, read().size());
    }

    /** Erasing one statement of a large entry as an ingest wrote it writes that statement's slot and a checksum. */
    @Test
    void aRewriteOfOneStatementInALargeEntryWritesLittleMoreThanItsSlot() throws Exception {
        List<StoredStatement> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            many.add(statement(i, i == 100 ? SECRET : "b@example.com"));
        }
        long index;
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            index = appender.append(new StatementsStored(many));
            appender.sync();
        }
        List<StoredStatement> after = new ArrayList<>(many);
        after.set(100, StoredStatement.erased(many.get(100).id(), many.get(100).storedMillis()));
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).blockSize(ChronicleLog.BLOCK_SIZE)
                .build()) {
            List<LogRewrite.Write> writes = LogRewrite.plan(q, Map.of(index, new StatementsStored(after)));
            int written = writes.stream().mapToInt(w -> w.bytes().length).sum();
            assertTrue(written < 2 * many.get(100).json().length, written + " bytes written for a slot of "
                    + many.get(100).json().length + " in an entry of " + 200 * many.get(100).json().length);
        }
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            log.rewrite(Map.of(index, new StatementsStored(after)));
        }
        StatementsStored read = (StatementsStored) read().get(0).event();
        assertTrue(read.statements().get(100).isErased());
        assertArrayEquals(many.get(101).json(), read.statements().get(101).json());
        assertFalse(anyFileHolds(SECRET));

        after.set(150, StoredStatement.erased(many.get(150).id(), many.get(150).storedMillis()));
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).blockSize(ChronicleLog.BLOCK_SIZE)
                .build()) {
            int written = LogRewrite.plan(q, Map.of(index, new StatementsStored(after))).stream()
                    .mapToInt(w -> w.bytes().length).sum();
            assertTrue(written < 2 * many.get(150).json().length, "a later erasure of the same entry: " + written);
        }
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            log.rewrite(Map.of(index, new StatementsStored(after)));
        }
        read = (StatementsStored) read().get(0).event();
        assertTrue(read.statements().get(100).isErased());
        assertTrue(read.statements().get(150).isErased());
        assertArrayEquals(many.get(151).json(), read.statements().get(151).json());
    }

    @Test
    void aReplacementThatDoesNotFitChangesNothing() {
        write();
        List<LogEntry> before = read();
        StatementsStored longer = new StatementsStored(List.of(statement(0, "x".repeat(500) + "@example.com")));
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            Map<Long, Event> r = new java.util.LinkedHashMap<>(erasure(before));
            r.put(before.get(0).position(), longer);
            assertThrows(IllegalArgumentException.class, () -> log.rewrite(r));
        }
        List<LogEntry> after = read();
        for (int e = 0; e < 5; e++) {
            List<StoredStatement> was = ((StatementsStored) before.get(e).event()).statements();
            List<StoredStatement> is = ((StatementsStored) after.get(e).event()).statements();
            for (int i = 0; i < 2; i++) {
                assertArrayEquals(was.get(i).json(), is.get(i).json(), "entry " + e + " as it was");
            }
        }
        assertFalse(Files.exists(dir.resolve(LogRewrite.PLAN)));
    }

    @Test
    void aRewriteCutShortAfterItsPlanIsFinishedByTheNextOpen() throws Exception {
        write();
        List<LogEntry> before = read();
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).blockSize(ChronicleLog.BLOCK_SIZE).build()) {
            LogRewrite.writePlan(dir, LogRewrite.plan(q, erasure(before))); // killed here: no entry written yet
        }
        assertTrue(anyFileHolds(SECRET));
        List<LogEntry> after = read(); // the open finishes the rewrite
        assertFalse(Files.exists(dir.resolve(LogRewrite.PLAN)));
        assertTrue(((StatementsStored) after.get(1).event()).statements().get(0).isErased());
        assertInstanceOf(EntryVoided.class, after.get(2).event());
        assertFalse(anyFileHolds(SECRET));
    }

    @Test
    void aPlanCutShortWhileItWasWrittenIsDroppedAndTheLogLeftAsItWas() throws Exception {
        write();
        List<LogEntry> before = read();
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).blockSize(ChronicleLog.BLOCK_SIZE).build()) {
            LogRewrite.writePlan(dir, LogRewrite.plan(q, erasure(before)));
        }
        Path plan = dir.resolve(LogRewrite.PLAN);
        byte[] whole = Files.readAllBytes(plan);
        Files.write(plan, java.util.Arrays.copyOf(whole, whole.length - 20)); // the crash cut its end
        List<LogEntry> after = read();
        assertFalse(Files.exists(plan));
        assertFalse(((StatementsStored) after.get(1).event()).statements().get(0).isErased());
        assertTrue(anyFileHolds(SECRET));
    }

    /**
     * A compaction waits while a rewrite holds the log (an erasure in the projecting process, beside a compaction run
     * in another): a compaction moves the byte positions a rewrite writes at.
     */
    @Test
    void aCompactionWaitsForARewriteInProgress() throws Exception {
        Path logDir = dir.resolve("log");
        ChronicleLog.open(logDir).close();
        java.util.concurrent.CompletableFuture<LogCompaction.Result> compaction;
        try (RewriteLock held = RewriteLock.acquire(logDir)) {
            compaction = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> LogCompaction.compactClosedCycles(logDir));
            Thread.sleep(300);
            org.junit.jupiter.api.Assertions.assertFalse(compaction.isDone(), "it waits for the rewrite");
        }
        org.junit.jupiter.api.Assertions.assertEquals(0, compaction.get(30, java.util.concurrent.TimeUnit.SECONDS)
                .cycles());
    }

    /** The plain reading of {@link LogRewrite#changed}: byte by byte, a range extended by each difference within 64 bytes. */
    private static List<int[]> changedByteByByte(byte[] old, byte[] fresh) {
        List<int[]> out = new ArrayList<>();
        int i = 0;
        while (i < fresh.length) {
            if (old[i] == fresh[i]) {
                i++;
                continue;
            }
            int from = i;
            int to = i + 1;
            for (int j = to; j < fresh.length && j < to + 64; j++) {
                if (old[j] != fresh[j]) {
                    to = j + 1;
                }
            }
            out.add(new int[] {from, to});
            i = to;
        }
        return out;
    }

    /** A rewrite writes where the bytes differ (ranges closer than 64 bytes joined), at both ends and nowhere else. */
    @Test
    void writesTheRangesWhereTheBytesDifferJoiningThoseCloserThanSixtyFourBytes() {
        java.util.Random r = new java.util.Random(22);
        for (int round = 0; round < 2000; round++) {
            byte[] old = new byte[r.nextInt(400)];
            r.nextBytes(old);
            byte[] fresh = old.clone();
            for (int k = 0, changes = r.nextInt(6); k < changes && fresh.length > 0; k++) {
                int at = r.nextInt(fresh.length);
                for (int j = at, run = 1 + r.nextInt(round % 2 == 0 ? 3 : 90); j < Math.min(fresh.length, at + run); j++) {
                    fresh[j] = (byte) (old[j] + 1);
                }
            }
            List<int[]> expected = changedByteByByte(old, fresh);
            List<int[]> actual = LogRewrite.changed(old, fresh);
            assertEquals(expected.size(), actual.size(), "round " + round);
            for (int k = 0; k < expected.size(); k++) {
                assertArrayEquals(expected.get(k), actual.get(k), "round " + round);
            }
        }
    }
}
