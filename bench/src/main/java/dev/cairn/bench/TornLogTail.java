package dev.cairn.bench;

import dev.cairn.log.chronicle.ChronicleLog;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * What a crash can leave of a log's pages that were never synced (README "Full disks and torn entries"): the log's
 * last cycle file cut at a random byte after the end of the last entry recorded as synced, with every process on the
 * log stopped. The cut falls in the entries written after it, or in as much empty space again after the last entry
 * (a page at least), so both happen about as often when there are unsynced entries.
 */
final class TornLogTail {
    /** Room for a cut after the last entry when nothing follows the synced one. */
    private static final int PAGE = 4096;

    /** Where a cut fell. */
    enum Where {
        /** in the header or body of an entry written after the synced one */
        INSIDE_AN_ENTRY,
        /** between two such entries (Chronicle's padding and index pages) */
        BETWEEN_ENTRIES,
        /** after the last entry of the file */
        AFTER_THE_LAST_ENTRY,
        /** not cut: the log records no synced entry (a crash could then take any entry) */
        NOTHING_SYNCED
    }

    /** A cut: where it fell, the file's new length, and how many entries followed the synced one before it. */
    record Cut(Where where, long length, int unsynced) {
    }

    /** An entry's bytes in its cycle file, its 4-byte header included. */
    private record Place(File file, long start, long end) {
    }

    private TornLogTail() {
    }

    /** Cuts the log in {@code logDir}, written by a process that was killed and is not restarted yet. */
    static Cut cut(Path logDir, SplittableRandom random) throws IOException {
        long synced;
        try (ChronicleLog log = ChronicleLog.open(logDir)) {
            synced = log.syncedPosition();
        }
        if (synced < 0 || synced == Long.MAX_VALUE) {
            return new Cut(Where.NOTHING_SYNCED, -1, -1);
        }
        Place last;
        List<Place> after = new ArrayList<>();
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(logDir).blockSize(ChronicleLog.BLOCK_SIZE)
                .readOnly(true).build(); ExcerptTailer tailer = q.createTailer()) {
            if (!tailer.moveToIndex(synced)) {
                throw new IllegalStateException("the synced index " + Long.toHexString(synced) + " is not in the log");
            }
            last = next(tailer);
            if (last == null) {
                throw new IllegalStateException("the synced entry " + Long.toHexString(synced) + " cannot be read");
            }
            for (Place p; (p = next(tailer)) != null; ) {
                after.add(p);
            }
        }
        File file = after.isEmpty() ? last.file() : after.get(after.size() - 1).file();
        List<Place> inFile = after.stream().filter(p -> p.file().equals(file)).toList();
        long from = last.file().equals(file) ? last.end() : inFile.get(0).start();
        long end = inFile.isEmpty() ? from : inFile.get(inFile.size() - 1).end();
        long at = from + random.nextLong(Math.max(2 * (end - from), PAGE));
        try (FileChannel ch = FileChannel.open(file.toPath(), StandardOpenOption.WRITE)) {
            if (at >= ch.size()) {
                throw new IllegalStateException("the cut at " + at + " is past the end of " + file);
            }
            ch.truncate(at);
        }
        Where where = at >= end ? Where.AFTER_THE_LAST_ENTRY
                : inFile.stream().anyMatch(p -> p.start() <= at && at < p.end()) ? Where.INSIDE_AN_ENTRY
                : Where.BETWEEN_ENTRIES;
        return new Cut(where, at, after.size());
    }

    private static Place next(ExcerptTailer tailer) {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return null;
            }
            long body = dc.wire().bytes().readPosition();
            return new Place(tailer.currentFile(), body - 4, body + dc.wire().bytes().readRemaining());
        }
    }
}
