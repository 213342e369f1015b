package dev.cairn.log;

import java.nio.file.Path;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * The log directory, opened once per process. Appenders and tailers are bound to the thread that creates them
 * (Chronicle checks this), so create them on the thread that uses them.
 */
public final class EventLog implements AutoCloseable {
    static {
        // Chronicle phones home and prints a banner unless told otherwise; the launcher sets these too.
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("chronicle.announcer.disable", "true");
    }

    /**
     * Chronicle's memory-mapping chunk. An entry may take at most a quarter of it (Chronicle's overlap, the part of
     * the next chunk mapped with each one): 128 MiB holds entries of 32 MiB, room for a body of the largest
     * {@code --max-body} with the fields the sequencer adds. Files are sparse, so disk use is what entries take.
     */
    public static final long BLOCK_SIZE = 128L << 20;

    private final Path dir;
    private final SingleChronicleQueue queue;

    private EventLog(Path dir, SingleChronicleQueue queue) {
        this.dir = dir;
        this.queue = queue;
    }

    /** Opens (creating if needed) the log in {@code dir}, with msync on every {@link LogAppender#sync()}. */
    public static EventLog open(Path dir) {
        return open(dir, BLOCK_SIZE);
    }

    /**
     * Opens the log with another block size, which bounds its entries ({@link #maxEntryBytes()}); every process
     * of a log must use the same one. Tests use a small one to reach the limit with small events.
     */
    public static EventLog open(Path dir, long blockSize) {
        SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).blockSize(blockSize)
                .syncMode(SyncMode.SYNC).build();
        return new EventLog(dir, queue);
    }

    /** The most bytes one event may take in this log: Chronicle's limit for one entry. */
    public long maxEntryBytes() {
        return queue.overlapSize();
    }

    public Path dir() {
        return dir;
    }

    /** A new appender for the calling thread. One sequencer appends to a log at a time. */
    public LogAppender appender() {
        return new LogAppender(queue.createAppender(), maxEntryBytes());
    }

    /** A new tailer for the calling thread that returns the entries after {@code afterIndex}, or all if it is -1. */
    public LogTailer tailer(long afterIndex) {
        return new LogTailer(queue.createTailer(), afterIndex);
    }

    /** The index of the last entry, or -1 when the log is empty. */
    public long lastIndex() {
        long last = queue.lastIndex();
        return last < 0 ? -1 : last;
    }

    /** How many entries the log holds after {@code index} (-1: all of them). */
    public long entriesAfter(long index) {
        long last = queue.lastIndex();
        if (last < 0 || last <= index) {
            return 0;
        }
        long from = index < 0 ? queue.firstIndex() : index;
        // countExcerpts counts [from, last): as many as (index, last] when starting at the watermark's own entry.
        return queue.countExcerpts(from, last) + (index < 0 ? 1 : 0);
    }

    @Override
    public void close() {
        queue.close();
    }
}
