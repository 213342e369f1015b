package dev.cairn.log;

import java.util.UUID;

/** A statement as stored: its id, its {@code stored} time and its exact JSON (what {@code format=exact} returns). */
public record StoredStatement(UUID id, long storedMillis, byte[] json) {
}
