package dev.cairn.log;

/**
 * An event larger than a log entry can hold, refused before any of it was written: the log is unchanged.
 */
public final class EntryTooLargeException extends RuntimeException {
    private final long length;
    private final long maxLength;

    public EntryTooLargeException(long length, long maxLength) {
        super("an event of " + length + " bytes does not fit in a log entry (at most " + maxLength + " bytes)");
        this.length = length;
        this.maxLength = maxLength;
    }

    /** The encoded length of the event. */
    public long length() {
        return length;
    }

    /** The most a log entry holds. */
    public long maxLength() {
        return maxLength;
    }
}
