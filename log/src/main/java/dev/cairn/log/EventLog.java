package dev.cairn.log;

import java.util.List;
import java.util.Map;

/**
 * The event log, opened once per process: one writer appends ({@link #appender()}), any number of readers tail it.
 * Appenders and tailers may be bound to the thread that creates them, so create them on the thread that uses them.
 *
 * <p>A position names one entry. Positions are opaque: they grow in log order (a later entry has a greater one),
 * an entry's is never negative, and that is all a user may rely on: never compute a neighbour's position from
 * one (no {@code + 1}), never decode one. {@link #START} comes before every entry. A position is stored as is
 * (the projector's watermark) and read back by every later release of the same log implementation.
 */
public interface EventLog extends AutoCloseable {
    /** The position before the first entry: a tailer after it reads the whole log; an empty log's last position. */
    long START = -1;

    /** Where the log lives, for messages: a directory, say, or a cluster's address. */
    String location();

    /** The most bytes one event may take in this log ({@link EventCodec#encodedLength}). */
    long maxEntryBytes();

    /**
     * A new appender for the calling thread, after voiding the torn tail a crash may have left
     * ({@link #repairTornTail()}). One writer appends to a log at a time (the caller holds {@link WriterLock}).
     */
    LogAppender appender();

    /**
     * Voids the torn tail (the entries after the last synced position from the first that fails its check on), syncs
     * what follows the synced position and records the log's end as synced. Only the log's writer may call this.
     *
     * @return a line per entry voided, naming its position and what was wrong with it
     */
    List<String> repairTornTail();

    /**
     * Rewrites entries in place, in the process that holds the log's writer lock (an erasure; the appender may go on
     * appending after them, and a tailer that meets an entry mid-rewrite reads it again): each entry of
     * {@code replacements}, by position, becomes its event in the bytes it took: statements ({@link StatementsStored},
     * erased ones with empty JSON), or {@link EntryVoided}. Every other entry, and every position, stays as it was. A
     * rewrite cut short by a crash is finished by the next open of the log.
     *
     * @throws IllegalArgumentException when a replacement does not fit in its entry; nothing is changed then
     */
    void rewrite(Map<Long, Event> replacements);

    /**
     * Works out what {@link #rewrite(Map)} of {@code replacements} would write (only the byte ranges that change),
     * writing nothing, for {@link #rewrite(Rewrite)} to write later: an erasure changes the tables in between.
     *
     * @throws IllegalArgumentException when a replacement does not fit in its entry
     */
    Rewrite prepareRewrite(Map<Long, Event> replacements);

    /** Writes a rewrite {@link #prepareRewrite} worked out, as {@link #rewrite(Map)} does; the log is as it was then. */
    void rewrite(Rewrite prepared);

    /** The writes of a prepared rewrite. */
    interface Rewrite {
        /** The bytes it writes. */
        long bytes();
    }

    /** Reads every entry from the start and reports the bad ones, without changing anything. */
    LogCheck check();

    /** A new tailer for the calling thread that returns the entries after {@code after} ({@link #START}: all). */
    LogTailer tailer(long after);

    /**
     * As {@link #tailer}, but it stops before an entry that is not synced yet: a projector that applies only these
     * never holds an entry that a crash could still take out of the log.
     */
    LogTailer syncedTailer(long after);

    /** The position of the last entry, or {@link #START} when the log is empty. */
    long lastPosition();

    /**
     * The position of the last entry known to be synced ({@link #START} when none is): a reader that starts after it
     * never skips an entry, while an entry after it may still be lost to a crash and its position taken by another.
     */
    long lastSyncedPosition();

    /** How many entries the log holds after {@code position} ({@link #START}: all of them). */
    long entriesAfter(long position);

    @Override
    void close();
}
