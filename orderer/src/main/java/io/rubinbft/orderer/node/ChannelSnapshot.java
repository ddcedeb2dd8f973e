package io.rubinbft.orderer.node;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every channel of the node as the lifecycle thread published it after its last transition. It
 * never changes: whoever reads several channels, or one channel several times, from one snapshot
 * sees them as they were at one moment.
 */
record ChannelSnapshot(SortedMap<String, ChannelEntry> entries) {

  static final ChannelSnapshot EMPTY = new ChannelSnapshot(new TreeMap<>());

  ChannelSnapshot {
    entries = Collections.unmodifiableSortedMap(new TreeMap<>(entries));
  }

  /** The names of the channels, sorted. */
  List<String> names() {
    return List.copyOf(entries.keySet());
  }

  Optional<ChannelEntry> get(String name) {
    return Optional.ofNullable(entries.get(name));
  }
}
