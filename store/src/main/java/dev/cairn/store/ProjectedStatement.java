package dev.cairn.store;

import dev.cairn.xapi.FilterKeys;
import java.util.UUID;

/** A statement ready to be projected: what the log carries and the keys the query side finds it by. */
public record ProjectedStatement(UUID id, long storedMillis, byte[] json, FilterKeys keys, boolean voiding) {
}
