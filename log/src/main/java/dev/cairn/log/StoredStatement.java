package dev.cairn.log;

import java.util.UUID;

/**
 * A statement as stored: its id, its {@code stored} time and its exact JSON (what {@code format=exact} returns). An
 * erased statement keeps its id and stored time and has no JSON: it keeps its place in the log, so the statements
 * after it keep their sequence numbers.
 */
public record StoredStatement(UUID id, long storedMillis, byte[] json) {
    private static final byte[] NONE = new byte[0];

    /** What an erasure leaves of a statement in the log. */
    public static StoredStatement erased(UUID id, long storedMillis) {
        return new StoredStatement(id, storedMillis, NONE);
    }

    /** Whether an erasure took this statement out (no statement Cairn stores has empty JSON). */
    public boolean isErased() {
        return json.length == 0;
    }
}
