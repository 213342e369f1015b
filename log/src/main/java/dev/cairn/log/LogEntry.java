package dev.cairn.log;

/** An event, the log position it was read at, and the bytes its entry takes in the log. */
public record LogEntry(long position, Event event, int length) {
}
