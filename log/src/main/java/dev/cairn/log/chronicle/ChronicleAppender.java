package dev.cairn.log.chronicle;

import dev.cairn.log.EntryTooLargeException;
import dev.cairn.log.Event;
import dev.cairn.log.EventCodec;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogFullException;
import dev.cairn.log.LogWriteException;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends events to a Chronicle Queue. {@link #sync()} is an msync, then records the synced position
 * ({@link SyncedPosition}).
 *
 * <p>An append either writes its whole entry or leaves nothing a reader takes for an event, whatever fails: a
 * full disk is found before writing (blocks are reserved ahead, {@link Preallocation}) and refused with
 * {@link LogFullException}; any other failure, Errors included (a SIGBUS of the memory-mapped file arrives as an
 * {@link InternalError}), rolls the entry back, and the next append starts on a new Chronicle appender once the
 * bytes the failed one may have left past the log's end are zeroed.
 */
public final class ChronicleAppender implements LogAppender {
    private static final Logger LOG = LoggerFactory.getLogger(ChronicleAppender.class);
    /** The bit of a Chronicle header that marks an entry still being written. */
    private static final int NOT_COMPLETE = 0x80000000;

    private final SingleChronicleQueue queue;
    private final SyncedPosition synced;
    private final Preallocation preallocation;
    private final PageWarmer warmer = new PageWarmer();
    private final long maxEntryBytes;
    private ExcerptAppender appender;
    private long lastAppended = -1;
    /** The cycle file of the last entry appended. */
    private File lastFile;
    /** The last entry this appender recorded as synced. */
    private long recorded = -1;
    /**
     * The cycle file of entries that a dropped appender (after a failed append) had not synced: the next sync forces
     * it whole, whatever appender then holds the log. Null when there are none.
     */
    private File unsyncedFile;
    private final Consumer<ExcerptAppender> msync;
    /** After a failed append: the region of {@link #dirtyFile} to zero before the next one, or null. */
    private File dirtyFile;
    private long dirtyFrom;
    private long dirtyTo;

    /**
     * @param maxEntryBytes the most one entry may hold
     * @param preallocate   false only in tests of what happens without it (a write that faults)
     * @param msync         Chronicle's sync of the appender's memory map (another only in tests of a sync that fails)
     */
    ChronicleAppender(SingleChronicleQueue queue, SyncedPosition synced, long maxEntryBytes, boolean preallocate,
                      Consumer<ExcerptAppender> msync) {
        this.queue = queue;
        this.msync = msync;
        this.synced = synced;
        this.maxEntryBytes = maxEntryBytes;
        this.preallocation = preallocate ? new Preallocation() : null;
        this.appender = queue.createAppender();
    }

    @Override
    public long append(Event event) {
        long size = EventCodec.encodedLength(event);
        if (size > maxEntryBytes) {
            throw new EntryTooLargeException(size, maxEntryBytes);
        }
        if (appender == null) {
            reopen();
        }
        long start = -1;
        File file = null;
        try {
            DocumentContext dc = appender.writingDocument();
            try {
                Bytes<?> bytes = dc.wire().bytes();
                start = bytes.writePosition();
                file = appender.currentFile();
                if (preallocation != null) {
                    preallocation.reserve(file, start, start + size);
                }
                EventCodec.encode(event, bytes);
                warmer.appended(bytes, bytes.writePosition(), size);
            } catch (Throwable t) {
                dc.rollbackOnClose(); // never leave a part of an event in the log
                throw t;
            } finally {
                dc.close();
            }
        } catch (LogFullException e) {
            throw e;
        } catch (Throwable t) {
            discard(file, start, size);
            throw new LogWriteException("cannot append to the log: " + t, t);
        }
        lastAppended = appender.lastIndexAppended();
        lastFile = file;
        return lastAppended;
    }

    /**
     * After a failure inside Chronicle the appender's own state is not to be trusted: drop it. Its rollback zeroed
     * the entry up to where writing stopped, but a write cut short by a fault may have left bytes after that, past
     * the log's end, where Chronicle expects zeros. The entries appended before it that are not synced yet are synced by
     * the next {@link #sync()}, through their file: it returns only once they are durable, or throws. (Synced here,
     * a failure could only be logged, and that sync then found no appender and acknowledged them unsynced.)
     */
    private void discard(File file, long start, long size) {
        if (lastAppended > recorded && lastFile != null) {
            unsyncedFile = lastFile;
        }
        try {
            appender.close();
        } catch (Throwable t) {
            LOG.warn("cannot close the log appender after a failed append", t);
        }
        appender = null;
        if (file != null && start >= 4) {
            dirtyFile = file;
            dirtyFrom = start - 4; // its header
            dirtyTo = start + size;
        }
    }

    private void reopen() {
        if (dirtyFile != null) {
            try (FileChannel ch = FileChannel.open(dirtyFile.toPath(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                ch.read(header, dirtyFrom);
                int h = header.flip().remaining() == 4 ? header.getInt() : 0;
                if (h != 0 && (h & NOT_COMPLETE) == 0) {
                    // Chronicle completed the entry before failing (in its index): it is in the log, leave it be.
                    dirtyFile = null;
                    appender = queue.createAppender();
                    return;
                }
                ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(1 << 20, dirtyTo - dirtyFrom));
                for (long at = dirtyFrom; at < dirtyTo; ) {
                    zeros.clear().limit((int) Math.min(zeros.capacity(), dirtyTo - at));
                    at += ch.write(zeros, at);
                }
                ch.force(false);
            } catch (IOException e) {
                throw new LogFullException("cannot clear the log's end after a failed append: " + e.getMessage());
            }
            dirtyFile = null;
        }
        appender = queue.createAppender();
    }

    @Override
    public void sync() {
        if (lastAppended <= recorded) {
            return;
        }
        if (unsyncedFile != null) {
            TornTail.sync(unsyncedFile); // an fdatasync: it covers what any memory map of the file wrote
            unsyncedFile = null;
        }
        if (appender != null) {
            msync.accept(appender);
        }
        synced.set(lastAppended);
        recorded = lastAppended;
    }

    @Override
    public void warmAhead() {
        if (preallocation != null && appender != null) {
            warmer.warm(preallocation.writtenTo(lastFile));
        }
    }

    @Override
    public void close() {
        if (preallocation != null) {
            preallocation.close();
        }
        if (appender != null) {
            appender.close();
        }
    }
}
