package dev.cairn.log;

/** An event and the log index it was read at. */
public record LogEntry(long index, Event event) {
}
