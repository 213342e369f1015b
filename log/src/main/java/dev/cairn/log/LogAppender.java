package dev.cairn.log;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Appends events. An append is visible to tailers at once but durable only after {@link #sync()}, which the
 * sequencer calls once per ring batch (group commit) before acknowledging the batch's requests.
 */
public final class LogAppender implements AutoCloseable {
    private final ExcerptAppender appender;
    private final long maxEntryBytes;

    LogAppender(ExcerptAppender appender, long maxEntryBytes) {
        this.appender = appender;
        this.maxEntryBytes = maxEntryBytes;
    }

    /**
     * Appends one event and returns its index.
     *
     * @throws EntryTooLargeException when the event is larger than an entry; nothing is written
     */
    public long append(Event event) {
        long length = EventCodec.encodedLength(event);
        if (length > maxEntryBytes) {
            throw new EntryTooLargeException(length, maxEntryBytes);
        }
        try (DocumentContext dc = appender.writingDocument()) {
            try {
                EventCodec.encode(event, dc.wire().bytes());
            } catch (RuntimeException e) {
                dc.rollbackOnClose(); // never leave half an event in the log
                throw e;
            }
        }
        return appender.lastIndexAppended();
    }

    /** Forces every appended entry to disk (msync). */
    public void sync() {
        appender.sync();
    }

    @Override
    public void close() {
        appender.close();
    }
}
