package dev.cairn.store;

/** A database failure, with what Cairn was doing when it happened. */
public final class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
