package dev.cairn.store;

import java.util.LinkedHashMap;
import java.util.Map;

/** A map that holds at most {@code capacity} entries, letting go of the least recently used one past that. */
public final class LruMap<K, V> extends LinkedHashMap<K, V> {
    private final int capacity;

    public LruMap(int capacity) {
        super(16, 0.75f, true);
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
