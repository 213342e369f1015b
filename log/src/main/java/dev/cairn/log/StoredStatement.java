package dev.cairn.log;

import java.util.UUID;

/**
 * A statement as stored: its id, its {@code stored} time and its exact JSON (what {@code format=exact} returns). An
 * erased statement keeps its id and stored time and has no JSON: it keeps its place in the log, so the statements
 * after it keep their sequence numbers, and its residue ({@code dev.cairn.xapi.StatementResidue}'s bytes, or null):
 * what it gave the tables every statement shares, which a replay applies in its place.
 */
public record StoredStatement(UUID id, long storedMillis, byte[] json, byte[] residue) {
    private static final byte[] NONE = new byte[0];

    public StoredStatement {
        if (residue != null && json.length > 0) {
            throw new IllegalArgumentException("statement " + id + " has both JSON and an erased statement's residue");
        }
    }

    public StoredStatement(UUID id, long storedMillis, byte[] json) {
        this(id, storedMillis, json, null);
    }

    /** What an erasure leaves of a statement in the log that gave nothing to keep. */
    public static StoredStatement erased(UUID id, long storedMillis) {
        return erased(id, storedMillis, null);
    }

    /** What an erasure leaves of a statement in the log: with {@code residue} null when it gave nothing to keep. */
    public static StoredStatement erased(UUID id, long storedMillis, byte[] residue) {
        return new StoredStatement(id, storedMillis, NONE, residue);
    }

    /** Whether an erasure took this statement out (no statement Cairn stores has empty JSON). */
    public boolean isErased() {
        return json.length == 0;
    }

    /** The bytes the log holds for this statement after its header: its JSON, or its residue when erased. */
    public int bodyLength() {
        return residue == null ? json.length : residue.length;
    }
}
