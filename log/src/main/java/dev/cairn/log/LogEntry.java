package dev.cairn.log;

/** An event and the log position it was read at. */
public record LogEntry(long position, Event event) {
}
