package dev.cairn.log.chronicle;

/**
 * The log cannot be read up to where Chronicle would append next: a writer must not start on it. Repaired, with
 * every process on the log stopped, by {@code cairn log check --truncate-torn-tail}
 * ({@link ChronicleLog#truncateTornTail}).
 */
public final class UnreadableEndException extends IllegalStateException {
    UnreadableEndException(String message) {
        super(message);
    }
}
