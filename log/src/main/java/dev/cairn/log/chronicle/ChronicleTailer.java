package dev.cairn.log.chronicle;

import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.EventCodec;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/** Reads events from a Chronicle Queue in log order, starting after a given index. */
public final class ChronicleTailer implements LogTailer {
    /**
     * How often an entry that fails its check is read again before it is reported as damaged, the pause doubling from
     * 1 ms (about a quarter of a second in all: a rewrite of a large entry writes many ranges).
     */
    private static final int REREADS = 8;
    private static final long FIRST_REREAD_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private final ExcerptTailer tailer;
    /** The last index it may return. */
    private final LongSupplier limit;
    /** The bytes of the entry a {@link #next(Filter)} judges, kept for the next one. */
    private byte[] raw = new byte[64 * 1024];

    ChronicleTailer(ExcerptTailer tailer, long afterIndex, LongSupplier limit) {
        this.tailer = tailer;
        this.limit = limit;
        if (afterIndex < 0) {
            tailer.toStart();
        } else {
            if (!tailer.moveToIndex(afterIndex)) {
                throw new IllegalStateException("log index " + Long.toHexString(afterIndex)
                        + " is not in the log; was a log cycle file deleted?");
            }
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    throw new IllegalStateException("log entry " + Long.toHexString(afterIndex) + " cannot be read");
                }
            }
        }
    }

    @Override
    public LogEntry next() {
        return read(null);
    }

    @Override
    public LogEntry next(Filter filter) {
        return read(filter);
    }

    /** The next entry {@code filter} accepts, or with none the next entry; null at the end. */
    private LogEntry read(Filter filter) {
        int rereads = 0;
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return null;
                }
                long index = dc.index();
                if (index > limit.getAsLong()) {
                    dc.rollbackOnClose();
                    return null;
                }
                Bytes<?> bytes = dc.wire().bytes();
                int length = (int) bytes.readRemaining();
                if (filter != null) {
                    if (raw.length < length) {
                        raw = new byte[Math.max(length, raw.length * 2)];
                    }
                    bytes.read(raw, 0, length);
                    if (!filter.accepts(raw, length)) {
                        continue;
                    }
                    bytes.readPosition(bytes.readPosition() - length);
                }
                try {
                    return new LogEntry(index, EventCodec.decode(bytes, index), length);
                } catch (BadLogEntryException e) {
                    dc.rollbackOnClose();
                    if (rereads++ < REREADS) {
                        // An erasure may be rewriting this entry in place beside us (EventLog.rewrite): its new bytes
                        // and checksum land within a few writes, so read it again before calling it damaged.
                        LockSupport.parkNanos(FIRST_REREAD_PAUSE_NANOS << (rereads - 1));
                        continue;
                    }
                    throw e;
                }
            }
        }
    }

    @Override
    public LogEntry at(long index) {
        if (!tailer.moveToIndex(index)) {
            throw new IllegalStateException("log index " + Long.toHexString(index) + " is not in the log");
        }
        LogEntry e = next();
        if (e == null) {
            throw new IllegalStateException("log entry " + Long.toHexString(index) + " cannot be read");
        }
        return e;
    }

    @Override
    public void close() {
        tailer.close();
    }
}
