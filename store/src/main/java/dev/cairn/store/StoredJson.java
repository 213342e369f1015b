package dev.cairn.store;

/** A statement's exact stored JSON and its stored time. */
public record StoredJson(byte[] json, long storedMillis) {
}
