package dev.cairn.log.chronicle;

import dev.cairn.log.DirectorySync;
import dev.cairn.log.EventCodec;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Gives back the disk space an erasure left in the log's closed cycle files (docs/erasure.md): an erasure rewrites
 * entries in place, so a removed statement keeps its bytes as zero padding and a voided document entry its length.
 * Each closed cycle that holds such entries is written again, entry by entry in order, into a new file of the same
 * cycle (each entry without its padding, every other entry byte for byte), which then replaces the old one in one
 * atomic rename. A cycle's sequence numbers follow the order of its entries, so every index (the projector's
 * watermark, forwarding cursors, {@code more} tokens) stays valid; only byte positions change, and nothing outside the
 * file keeps those.
 *
 * <p>The last cycle is left alone: an appender may write to it. A process reading a closed cycle meanwhile keeps the
 * old file's mapping, whose entries read the same. Only with the log's writer lock held, and with no rewrite
 * ({@link LogRewrite}) pending: a rewrite plan names byte positions. A process killed during a compaction leaves the
 * old file in place and a temporary directory, which the next compaction removes.
 */
public final class LogCompaction {
    private static final String TEMPORARY = "compact-";

    /** What a compaction did: the cycles it wrote again, and their entries' bytes before and after. */
    public record Result(int cycles, long entries, long bytesBefore, long bytesAfter) {
    }

    private LogCompaction() {
    }

    /** Compacts every closed cycle of the log in {@code dir} that holds padding; the caller holds the writer lock. */
    public static Result compactClosedCycles(Path dir) {
        try (RewriteLock held = RewriteLock.acquire(dir)) { // an erasure's rewrite may run in the projecting process
            return compactHeld(dir);
        }
    }

    private static Result compactHeld(Path dir) {
        if (Files.exists(dir.resolve(LogRewrite.PLAN))) {
            throw new IllegalStateException("a log rewrite is pending in " + dir + "; open the log to finish it first");
        }
        removeLeftovers(dir);
        int cycles = 0;
        long entries = 0;
        long before = 0;
        long after = 0;
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).blockSize(ChronicleLog.BLOCK_SIZE)
                .build()) {
            int last = queue.lastCycle();
            for (int cycle = queue.firstCycle(); cycle >= 0 && cycle < last; cycle = next(queue, cycle)) {
                if (!padded(queue, cycle)) {
                    continue; // nothing to give back
                }
                long[] written = rewrite(queue, dir, cycle);
                cycles++;
                entries += written[0];
                before += written[1];
                after += written[2];
            }
        }
        return new Result(cycles, entries, before, after);
    }

    /** The next cycle after {@code cycle} that has a file, or -1. */
    private static int next(SingleChronicleQueue queue, int cycle) {
        try {
            return queue.nextCycle(cycle, net.openhft.chronicle.queue.TailerDirection.FORWARD);
        } catch (java.text.ParseException e) {
            throw new IllegalStateException("cannot list the log's cycle files: " + e.getMessage(), e);
        }
    }

    /** Whether an entry of {@code cycle} holds padding. */
    private static boolean padded(SingleChronicleQueue queue, int cycle) {
        Bytes<byte[]> scratch = Bytes.allocateElasticOnHeap(256);
        RollCycle roll = queue.rollCycle();
        try (ExcerptTailer tailer = queue.createTailer()) {
            boolean any = tailer.moveToIndex(roll.toIndex(cycle, 0));
            while (any) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent() || roll.toCycle(dc.index()) != cycle) {
                        return false;
                    }
                    scratch.clear();
                    if (EventCodec.encodeCompacted(dc.wire().bytes(), dc.index(), scratch)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Writes {@code cycle} again without padding over the old file; its entries, and their bytes before and after. */
    private static long[] rewrite(SingleChronicleQueue queue, Path dir, int cycle) {
        RollCycle roll = queue.rollCycle();
        long cycleStart = queue.epoch() + (long) cycle * roll.lengthInMillis();
        long entries = 0;
        long before = 0;
        long after = 0;
        try {
            Path tmp = Files.createTempDirectory(dir, TEMPORARY);
            File file;
            Bytes<byte[]> compacted = Bytes.allocateElasticOnHeap(256);
            SetTimeProvider time = new SetTimeProvider(TimeUnit.MILLISECONDS.toNanos(cycleStart));
            try (SingleChronicleQueue out = SingleChronicleQueueBuilder.binary(tmp).blockSize(ChronicleLog.BLOCK_SIZE)
                    .rollCycle(roll).epoch(queue.epoch()).timeProvider(time).build();
                 ExcerptAppender appender = out.createAppender();
                 ExcerptTailer tailer = queue.createTailer()) {
                boolean any = tailer.moveToIndex(roll.toIndex(cycle, 0));
                while (any) {
                    try (DocumentContext dc = tailer.readingDocument()) {
                        if (!dc.isPresent() || roll.toCycle(dc.index()) != cycle) {
                            break;
                        }
                        Bytes<?> entry = dc.wire().bytes();
                        long start = entry.readPosition();
                        long length = entry.readRemaining();
                        compacted.clear();
                        if (EventCodec.encodeCompacted(entry, dc.index(), compacted)) {
                            appender.writeBytes(compacted);
                            after += compacted.readRemaining();
                        } else {
                            entry.readPosition(start);
                            appender.writeBytes(entry);
                            after += length;
                        }
                        before += length;
                        entries++;
                    }
                }
                file = appender.currentFile();
                // A closed cycle ends with an end-of-file marker, without which a reader would wait at its end instead
                // of going on to the next cycle: Chronicle writes it when an appender rolls, so roll once.
                time.currentTimeMillis(cycleStart + roll.lengthInMillis());
                try (DocumentContext dc = appender.writingDocument()) {
                    dc.wire().write("cairn").text("compacted");
                }
            }
            TornTail.sync(file);
            Files.move(file.toPath(), dir.resolve(file.getName()), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            DirectorySync.sync(dir);
            CycleRewrite.deleteTree(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact the log's cycle " + cycle + ": " + e.getMessage(), e);
        }
        return new long[] {entries, before, after};
    }

    /** Removes what a killed compaction left: its temporary directories (the old cycle files were never replaced). */
    private static void removeLeftovers(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith(TEMPORARY)).toList()) {
                CycleRewrite.deleteTree(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clean " + dir + ": " + e.getMessage(), e);
        }
    }
}
