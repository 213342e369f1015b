package dev.cairn.log.chronicle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.LogAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blocks ahead of the appender are written before Chronicle writes into them, not merely reserved: a sync of an
 * entry then writes its data pages and needs no journal commit to convert an "unwritten" extent. Read with
 * {@code filefrag -v} (e2fsprogs), which lists each extent of a file and flags those still unwritten.
 */
class PreallocationTest {
    /** One extent of {@code filefrag -v}: "  0:  0..  2047:  34816..  36863:  2048:  unwritten,eof". */
    private static final Pattern EXTENT = Pattern.compile("^\\s*\\d+:\\s*(\\d+)\\.\\.\\s*(\\d+):.*?:\\s*(\\S*)$");

    @TempDir
    Path tmp;

    @Test
    void theBlocksAheadOfTheAppenderAreWrittenNotMerelyReserved() throws Exception {
        Path dir = tmp.resolve("log");
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            appender.append(FullDiskTest.event(1_000));
            appender.sync();
        }
        Path cycle;
        try (Stream<Path> files = Files.list(dir)) {
            cycle = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        long blockBytes = 4096;
        long writtenBlocks = 0;
        for (String line : filefrag(cycle)) {
            Matcher m = EXTENT.matcher(line);
            if (m.find()) {
                long first = Long.parseLong(m.group(1));
                long last = Long.parseLong(m.group(2));
                if (first * blockBytes < Preallocation.AHEAD) {
                    assertTrue(!m.group(3).contains("unwritten"), "an unwritten extent ahead of the appender: " + line);
                    writtenBlocks += last - first + 1;
                }
            }
        }
        // What Chronicle itself wrote before the entry (its header, an index) goes through its memory map and may
        // not be on disk yet, so has no extent: the zero-filled region after it must be, written and synced.
        assertTrue(writtenBlocks * blockBytes >= Preallocation.AHEAD - Preallocation.SLACK,
                "the blocks ahead of the entry are written: found " + writtenBlocks + " in the first "
                        + Preallocation.AHEAD + " bytes");
    }

    /**
     * A sync writes back the pages its entry dirtied, not the zeros written ahead around them: with the zeros written a
     * megabyte at a time, the kernel's page cache held them in large folios, each dirtied and written back whole by the
     * sync of an entry of a few hundred bytes. Measured as the bytes this thread dirtied ({@code write_bytes} of
     * /proc/thread-self/io, which counts a folio whole when it is dirtied).
     */
    @Test
    void aSyncWritesThePagesOfItsEntryNotTheZerosAroundThem() throws Exception {
        int entries = 200;
        try (ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender()) {
            // Into the second stretch of zeros: Chronicle maps and touches the start of a cycle file before any are
            // written, so the first stretch is partly in pages it made.
            for (long bytes = 0; bytes < Preallocation.AHEAD + 2 * Preallocation.SLACK; bytes += 50_000) {
                appender.append(FullDiskTest.event(50_000));
            }
            appender.sync();
            long before = dirtiedBytes();
            for (int i = 0; i < entries; i++) {
                appender.append(FullDiskTest.event(1_000));
                appender.sync();
            }
            long perSync = (dirtiedBytes() - before) / entries;
            // An entry's page (two when it crosses one), its slot in Chronicle's index and the header's write position.
            assertTrue(perSync <= 4 * Preallocation.PAGE, "each sync of a 1 KB entry dirtied " + perSync + " bytes");
        }
    }

    /**
     * Once the appender is past half of a stretch of zeros, the next stretch is written by another thread while it goes
     * on: inline, its 8 MiB and their fdatasync stopped the appender once in every 8 MiB of log.
     */
    @Test
    void theNextStretchIsWrittenAheadByAnotherThreadWhileTheAppenderGoesOn() throws Exception {
        Path dir = tmp.resolve("log");
        long appended = 0;
        long dirtied;
        try (ChronicleLog log = ChronicleLog.open(dir); LogAppender appender = log.appender()) {
            appender.append(FullDiskTest.event(50_000)); // the first stretch is written inline
            long before = dirtiedBytes();
            while (appended < Preallocation.AHEAD * 3 / 4) {
                appender.append(FullDiskTest.event(50_000));
                appended += 50_000;
            }
            dirtied = dirtiedBytes() - before;
            appender.sync();
        } // closing waits for the stretch being written
        assertTrue(dirtied < appended + Preallocation.AHEAD / 2, "the appending thread dirtied " + dirtied
                + " bytes for " + appended + " bytes of entries: it wrote the next stretch of zeros itself");
        Path cycle;
        try (Stream<Path> files = Files.list(dir)) {
            cycle = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        long blockBytes = 4096;
        long from = Preallocation.AHEAD + Preallocation.SLACK + 100_000; // past the first stretch, whatever its start
        long to = 2 * Preallocation.AHEAD;
        long written = 0;
        for (String line : filefrag(cycle)) {
            Matcher m = EXTENT.matcher(line);
            if (m.find() && !m.group(3).contains("unwritten")) {
                long first = Math.max(Long.parseLong(m.group(1)) * blockBytes, from);
                long last = Math.min((Long.parseLong(m.group(2)) + 1) * blockBytes, to);
                written += Math.max(0, last - first);
            }
        }
        assertEquals(to - from, written, "the second stretch of zeros is written on disk");
    }

    /** The bytes this thread has dirtied in the page cache of files on a disk so far. */
    private static long dirtiedBytes() throws IOException {
        return Files.readAllLines(Path.of("/proc/thread-self/io")).stream()
                .filter(l -> l.startsWith("write_bytes:"))
                .mapToLong(l -> Long.parseLong(l.substring("write_bytes:".length()).trim()))
                .findFirst().orElseThrow();
    }

    private static List<String> filefrag(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("filefrag", "-b4096", "-v", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "filefrag did not finish");
        assertEquals(0, p.exitValue(), "filefrag (e2fsprogs) on " + file + ": " + out);
        return out.lines().toList();
    }
}
