package dev.cairn.log.chronicle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogFullException;
import dev.cairn.log.LogTailer;
import dev.cairn.log.LogWriteException;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.SmallFilesystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log on a real filesystem that fills up: an append either writes its whole entry or leaves nothing. */
class FullDiskTest {
    @TempDir
    Path tmp;
    private SmallFilesystem fs;

    @BeforeEach
    void mount() {
        fs = SmallFilesystem.mount(tmp.resolve("fs"), 24);
    }

    @AfterEach
    void unmount() {
        fs.close();
    }

    static StatementsStored event(int bytes) {
        byte[] json = new byte[bytes];
        Arrays.fill(json, (byte) 'x');
        return new StatementsStored(List.of(new StoredStatement(UUID.randomUUID(), 1, json)));
    }

    @Test
    void aFullDiskIsRefusedBeforeTheEntryIsWrittenAndAppendsResumeOnceSpaceIsFreed() throws Exception {
        Path dir = fs.dir().resolve("log");
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            List<Long> appended = appendUntilRefused(appender, LogFullException.class);
            assertTrue(appended.size() > 10, "appended " + appended.size());
            Files.delete(fs.dir().resolve("filler"));
            appended.add(appender.append(event(50_000)));
            appender.sync();
            assertEquals(appended, readAll(log));
            assertTrue(log.tornTail().isEmpty(), log.tornTail().toString());
        }
    }

    /**
     * The SIGBUS of a write in compiled code can reach its thread only after the append that caused it returned (the
     * JVM throws it at a later safepoint): that append could not roll back, and the scenario is played again.
     */
    private static final class LateFault extends RuntimeException {
        LateFault(InternalError e) {
            super(e);
        }
    }

    /** A scenario played on a log directory of its own. */
    private interface Scenario {
        void play(Path dir) throws Exception;
    }

    /** Plays {@code scenario} on a new log, again (three times at most) when its fault came late. */
    private void playAgainOnLateFaults(Scenario scenario) throws Exception {
        for (int attempt = 1; ; attempt++) {
            Path dir = fs.dir().resolve("log-" + attempt);
            try {
                scenario.play(dir);
                return;
            } catch (LateFault e) {
                if (attempt == 3) {
                    throw e;
                }
                Files.deleteIfExists(fs.dir().resolve("filler"));
                try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
                    for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        }
    }

    /** Without preallocation the write faults (SIGBUS: an InternalError) inside Chronicle's memory map. */
    @Test
    void aWriteThatFaultsIsRolledBackAndTheNextAppendSucceedsOnceSpaceIsFreed() throws Exception {
        playAgainOnLateFaults(this::writeThatFaults);
    }

    private void writeThatFaults(Path dir) throws Exception {
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender(false)) {
            List<Long> appended = appendUntilRefused(appender, LogWriteException.class);
            assertTrue(appended.size() > 10, "appended " + appended.size());
            assertEquals(appended, readAll(log), "the faulted entry is not in the log");
            Files.delete(fs.dir().resolve("filler"));
            appended.add(appender.append(event(50_000)));
            appended.add(appender.append(event(10)));
            appender.sync();
            assertEquals(appended, readAll(log));
        }
        try (ChronicleLog log = ChronicleLog.open(dir)) {
            assertTrue(log.tornTail().isEmpty(), log.tornTail().toString());
        }
    }

    /**
     * An append that fails drops its appender, and the entries appended before it and not yet synced are still synced
     * by the next sync of the batch, before their writes are acknowledged, even when a sync of them failed on the way:
     * the failed append's own attempt at their sync was only logged, and the batch's sync then found no appender and
     * returned as though they were durable.
     */
    @Test
    void aSyncAfterAFailedAppendMakesTheEntriesBeforeItDurable() throws Exception {
        playAgainOnLateFaults(this::syncAfterAFailedAppend);
    }

    private void syncAfterAFailedAppend(Path dir) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean();
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender(false, a -> {
            if (failing.get()) {
                throw new IllegalStateException("msync failed (this test's)");
            }
            a.sync();
        })) {
            for (int i = 0; i < 20; i++) {
                appender.append(event(50_000));
            }
            appender.sync();
            fs.fill("filler");
            for (int i = 0; i < 10_000; i++) {
                long small = appender.append(event(10)); // fits in a page already written: not refused
                failing.set(true); // every msync fails until the batch's own sync below
                try {
                    appender.append(event(50_000));
                } catch (LogWriteException e) {
                    failing.set(false);
                    appender.sync();
                    assertEquals(small, log.syncedPosition(), "the sync returned with the entry before the failed "
                            + "append not recorded as synced");
                    return;
                } catch (InternalError e) {
                    throw new LateFault(e);
                } finally {
                    failing.set(false);
                }
                appender.sync();
            }
            fail("a full disk never failed an append");
        }
    }

    /** Appends and syncs entries of 50 KB with the filesystem nearly full until one is refused. */
    private List<Long> appendUntilRefused(LogAppender appender, Class<? extends RuntimeException> refusal) {
        List<Long> appended = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            appended.add(appender.append(event(50_000)));
        }
        appender.sync();
        fs.fill("filler");
        for (int i = 0; i < 10_000; i++) {
            try {
                appended.add(appender.append(event(50_000)));
                appender.sync();
            } catch (RuntimeException e) {
                assertInstanceOf(refusal, e, e.toString());
                return appended;
            } catch (InternalError e) { // not from inside an append, which turns it into a LogWriteException
                throw new LateFault(e);
            }
        }
        return fail("a full disk never refused an append");
    }

    private static List<Long> readAll(EventLog log) {
        List<Long> read = new ArrayList<>();
        try (LogTailer tailer = log.tailer(-1)) {
            LogEntry e;
            while ((e = tailer.next()) != null) {
                read.add(e.position());
            }
            assertNull(tailer.next());
        }
        return read;
    }
}
