package dev.cairn.log;

/**
 * Appends events. An append is visible to tailers at once but durable only after {@link #sync()}, which the
 * sequencer calls once per ring batch (group commit) before acknowledging the batch's requests; the sync then
 * records the synced position, which a {@link EventLog#syncedTailer} does not read past.
 *
 * <p>An append either writes its whole entry or leaves nothing a reader takes for an event, whatever fails.
 */
public interface LogAppender extends AutoCloseable {
    /**
     * Appends one event and returns its position.
     *
     * @throws EntryTooLargeException when the event is larger than an entry (nothing was appended)
     * @throws LogFullException when the disk has no room for it (nothing was appended)
     * @throws LogWriteException when it could not be appended for another reason (nothing was appended)
     */
    long append(Event event);

    /** Forces every appended entry to disk, then records it as the synced position. */
    void sync();

    /**
     * Readies what the next appends will write into (for a memory-mapped log, its pages), so that they do not stop
     * for it; changes nothing a reader sees. A hint: the sequencer calls it when a batch is answered.
     */
    default void warmAhead() {
    }

    @Override
    void close();
}
