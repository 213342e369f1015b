package dev.cairn.store;

/**
 * The watermark was not where this projector left it: another projector has written to the same database.
 * This projector must stop; its transaction was rolled back.
 */
public final class FencedException extends RuntimeException {
    public FencedException(String message) {
        super(message);
    }
}
