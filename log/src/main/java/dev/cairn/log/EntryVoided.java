package dev.cairn.log;

/**
 * The place of an entry that holds no event: one torn after the last sync, neutralised by the next writer, or one an
 * erasure emptied. It changes nothing, but keeps its index so that Chronicle's sequence numbers and index stay as
 * they were.
 */
public record EntryVoided() implements Event {
    public static final EntryVoided INSTANCE = new EntryVoided();
}
