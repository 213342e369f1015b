package dev.cairn.xapi;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable map in the order the client wrote it, kept as one array of alternating keys and values. Language
 * maps and extensions hold a handful of entries, for which a linear scan beats hashing and one array costs a
 * fraction of a LinkedHashMap's nodes; equals and hashCode are those of any Map.
 */
final class SmallMap<V> extends AbstractMap<String, V> {
    private final Object[] kv;

    SmallMap(Object[] kv) {
        this.kv = kv;
    }

    @Override
    public int size() {
        return kv.length >> 1;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i].equals(key)) {
                return (V) kv[i + 1];
            }
        }
        return null;
    }

    @Override
    public boolean containsKey(Object key) {
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i].equals(key)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return kv.length >> 1;
            }

            @Override
            public Iterator<Entry<String, V>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < kv.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<String, V> next() {
                        if (i >= kv.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, V> e = new SimpleImmutableEntry<>((String) kv[i], (V) kv[i + 1]);
                        i += 2;
                        return e;
                    }
                };
            }
        };
    }
}
