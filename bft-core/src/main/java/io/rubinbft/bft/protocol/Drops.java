package io.rubinbft.bft.protocol;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counts messages dropped at the boundary by kind. A reason reads "kind: detail"; only the kind is
 * a key, so a peer cannot grow the map by varying details. The latest detail is kept for humans.
 */
final class Drops {

  private final Map<String, Long> counts = new TreeMap<>();
  private String latest = "";

  void drop(String reason) {
    int colon = reason.indexOf(':');
    String kind = colon < 0 ? reason : reason.substring(0, colon);
    counts.merge(kind, 1L, Long::sum);
    latest = reason;
  }

  Map<String, Long> counts() {
    return Map.copyOf(counts);
  }

  String latest() {
    return latest;
  }
}
