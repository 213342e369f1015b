package dev.cairn.log;

/** An append failed for a reason other than a full disk; nothing was appended. */
public final class LogWriteException extends RuntimeException {
    public LogWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
