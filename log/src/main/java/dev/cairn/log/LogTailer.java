package dev.cairn.log;

/** Reads events in log order, starting after a given position. */
public interface LogTailer extends AutoCloseable {
    /**
     * The next entry, or null when the tailer has reached the end of the log (or of what is synced) for now.
     *
     * @throws BadLogEntryException when the next entry is not a whole event; the tailer stays before it
     */
    LogEntry next();

    /** The entry at {@code position} (random access; the tailer then continues after it). */
    LogEntry at(long position);

    @Override
    void close();
}
