package dev.cairn.log.chronicle;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Cuts a log whose last cycle file cannot be read up to Chronicle's write position (its last pages lost in a crash,
 * or the file cut short): the cycle's entries are copied, in order, up to the first one after the synced position
 * that fails its check, into a new file of the same cycle, which then replaces the old one. Every entry kept has the
 * same index as before (a cycle's sequence numbers start at 0 and follow the order of its entries), and Chronicle
 * builds the new file's index and write position itself. Only with every process on the log stopped.
 */
final class CycleRewrite {
    private CycleRewrite() {
    }

    /** @return the entries dropped from the end (the torn tail) */
    static long rewriteLastCycle(Path dir, long synced) {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).blockSize(ChronicleLog.BLOCK_SIZE).build()) {
            int cycle = queue.lastCycle();
            RollCycle roll = queue.rollCycle();
            long cycleStart = queue.epoch() + (long) cycle * roll.lengthInMillis();
            Path tmp = Files.createTempDirectory(dir, "rewrite-");
            File file;
            long kept = 0;
            long seen = 0;
            try (SingleChronicleQueue out = SingleChronicleQueueBuilder.binary(tmp).blockSize(ChronicleLog.BLOCK_SIZE).rollCycle(roll).epoch(queue.epoch())
                    .timeProvider(new SetTimeProvider(TimeUnit.MILLISECONDS.toNanos(cycleStart))).build();
                 ExcerptAppender appender = out.createAppender();
                 ExcerptTailer tailer = queue.createTailer()) {
                boolean any = tailer.moveToIndex(roll.toIndex(cycle, 0));
                boolean torn = false;
                while (any) {
                    try (DocumentContext dc = tailer.readingDocument()) {
                        if (!dc.isPresent() || roll.toCycle(dc.index()) != cycle) {
                            break;
                        }
                        seen++;
                        if (!torn && (dc.index() <= synced || TornTail.problem(dc.wire().bytes(), dc.index()) == null)) {
                            appender.writeBytes(dc.wire().bytes());
                            kept++;
                        } else {
                            torn = true;
                        }
                    }
                }
                if (kept == 0) {
                    try (DocumentContext dc = appender.writingDocument(true)) { // creates the cycle's file, empty
                        dc.wire().write("cairn").text("rewritten");
                    }
                }
                file = appender.currentFile();
                appender.sync();
            }
            File old = new File(dir.toFile(), file.getName());
            Files.move(file.toPath(), old.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            deleteTree(tmp);
            return seen - kept;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite the log's last cycle file: " + e.getMessage(), e);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
