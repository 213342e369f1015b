package dev.cairn.log;

/**
 * A log entry that cannot be read as an event: torn (not written whole), damaged, or of a format this release does
 * not know. Reading it again gives the same answer, so whoever meets one stops there instead of retrying; a torn
 * tail after the last synced entry is repaired by the next writer or by {@code cairn log check --truncate-torn-tail}.
 */
public final class BadLogEntryException extends IllegalStateException {
    private final long position;

    public BadLogEntryException(long position, String problem) {
        super("log entry at index " + Long.toHexString(position) + " " + problem);
        this.position = position;
    }

    /** The log position of the entry. */
    public long position() {
        return position;
    }
}
