package dev.cairn.store;

import dev.cairn.xapi.FilterKeys;
import java.util.UUID;

/**
 * A statement ready to be projected: what the log carries, its {@code format=ids} form (computed once, here, so
 * queries serve it without parsing) and the keys the query side finds it by.
 */
public record ProjectedStatement(UUID id, long storedMillis, byte[] json, byte[] ids, FilterKeys keys, boolean voiding) {
}
