package dev.cairn.store;

/**
 * How far the projector has applied the log: the last log index applied (-1 before the first), the stored time
 * of the last statement applied and the last statement sequence number assigned.
 */
public record Watermark(long logIndex, long storedMillis, long seq) {
    public static final Watermark EMPTY = new Watermark(-1, 0, 0);
}
