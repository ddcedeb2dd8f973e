package io.rubinbft.bft.protocol;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counts messages dropped at the boundary by kind. A reason reads "kind: detail"; only the kind is
 * a key, so a peer cannot grow the map by varying details.
 */
final class Drops {

  private final Map<String, Long> counts = new TreeMap<>();

  void drop(String reason) {
    int colon = reason.indexOf(':');
    String kind = colon < 0 ? reason : reason.substring(0, colon);
    counts.merge(kind, 1L, Long::sum);
  }

  Map<String, Long> counts() {
    return Map.copyOf(counts);
  }
}
