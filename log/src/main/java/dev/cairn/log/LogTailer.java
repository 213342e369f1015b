package dev.cairn.log;

/** Reads events in log order, starting after a given position. */
public interface LogTailer extends AutoCloseable {
    /**
     * The next entry, or null when the tailer has reached the end of the log (or of what is synced) for now.
     *
     * @throws BadLogEntryException when the next entry is not a whole event; the tailer stays before it
     */
    LogEntry next();

    /**
     * The next entry whose bytes {@code filter} accepts, or null at the end of the log: the entries it refuses are
     * passed over without being decoded or checked, so a search of the whole log for a few strings (an erasure's
     * people) costs little more than reading it.
     */
    LogEntry next(Filter filter);

    /** Which entries {@link #next(Filter)} decodes, judged from their bytes as the log holds them. */
    interface Filter {
        /** Whether the entry whose bytes are the first {@code length} of {@code bytes} may matter. */
        boolean accepts(byte[] bytes, int length);
    }

    /** The entry at {@code position} (random access; the tailer then continues after it). */
    LogEntry at(long position);

    @Override
    void close();
}
