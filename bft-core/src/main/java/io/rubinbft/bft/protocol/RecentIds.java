package io.rubinbft.bft.protocol;

import io.rubinbft.bft.RequestId;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The ids of the most recently decided requests, at most {@code capacity}, oldest forgotten first.
 */
final class RecentIds {

  private final int capacity;
  private final LinkedHashSet<RequestId> ids = new LinkedHashSet<>();

  RecentIds(int capacity) {
    this.capacity = capacity;
  }

  void add(RequestId id) {
    if (ids.add(id) && ids.size() > capacity) {
      Iterator<RequestId> oldest = ids.iterator();
      oldest.next();
      oldest.remove();
    }
  }

  /** The remembered ids, oldest first. */
  List<RequestId> inOrder() {
    return List.copyOf(ids);
  }

  boolean contains(RequestId id) {
    return ids.contains(id);
  }
}
