package dev.cairn.log;

/**
 * The place of an entry that was torn after the last sync, neutralised by the next writer: it holds no event and
 * changes nothing, but keeps its index so that Chronicle's sequence numbers and index stay as they were.
 */
public record EntryVoided() implements Event {
    static final EntryVoided INSTANCE = new EntryVoided();
}
