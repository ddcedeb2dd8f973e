package io.rubinbft.orderer.msp;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A least-recently-used map of at most {@code capacity} entries; thread-safe. */
final class BoundedCache<K, V> {

  private final Map<K, V> entries;

  BoundedCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("cache capacity must be positive, got " + capacity);
    }
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > capacity;
          }
        };
  }

  synchronized Optional<V> get(K key) {
    return Optional.ofNullable(entries.get(key));
  }

  synchronized void put(K key, V value) {
    entries.put(key, value);
  }

  synchronized int size() {
    return entries.size();
  }
}
