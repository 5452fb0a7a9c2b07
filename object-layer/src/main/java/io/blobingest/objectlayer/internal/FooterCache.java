package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.PackBackend.PackIndex;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed pack footers, least recently used first out, at most {@code capacity} of them. Keyed by
 * location and length: committed packs never change, and a different length means a different
 * object under the same name, which must not be served an old footer. Thread-safe.
 */
final class FooterCache {

    private record Key(URI location, long length) {}

    private final int capacity;
    private final Map<Key, PackIndex> entries;

    FooterCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("footer cache capacity must be >= 0, found " + capacity);
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, PackIndex> eldest) {
                return size() > FooterCache.this.capacity;
            }
        };
    }

    synchronized PackIndex get(URI location, long length) {
        return entries.get(new Key(location, length));
    }

    synchronized void put(URI location, long length, PackIndex index) {
        if (capacity > 0) {
            entries.put(new Key(location, length), index);
        }
    }

    synchronized int size() {
        return entries.size();
    }
}
