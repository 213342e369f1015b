package dev.cairn.log;

/** The log's disk has no room for an entry: nothing was appended, and a retry once space is freed can succeed. */
public final class LogFullException extends RuntimeException {
    public LogFullException(String message) {
        super(message);
    }
}
