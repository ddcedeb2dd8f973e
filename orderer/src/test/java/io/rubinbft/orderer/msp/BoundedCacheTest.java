package io.rubinbft.orderer.msp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundedCacheTest {

  @Test
  void evictsTheLeastRecentlyUsedEntryAtCapacity() {
    BoundedCache<String, Integer> cache = new BoundedCache<>(2);
    cache.put("a", 1);
    cache.put("b", 2);
    assertThat(cache.get("a")).contains(1);

    cache.put("c", 3);

    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.get("b")).isEmpty();
    assertThat(cache.get("a")).contains(1);
    assertThat(cache.get("c")).contains(3);
  }
}
