package io.rubinbft.net;

import java.util.EnumMap;
import java.util.Map;

/** A channel's mutable counters, turned into {@link ChannelStats} on demand. */
final class ChannelCounters {

  long messagesSent;
  long messagesReceived;
  long framesSent;
  long bytesSent;
  long framesReceived;
  long bytesReceived;
  long creditFramesSent;
  long backPressured;
  long partialMessagesDiscarded;
  private final long[] dropped = new long[DropReason.values().length];

  void drop(DropReason reason) {
    dropped[reason.ordinal()]++;
  }

  /** Adds every drop count into {@code totals}. */
  void addDropsTo(long[] totals) {
    for (int i = 0; i < dropped.length; i++) {
      totals[i] += dropped[i];
    }
  }

  static Map<DropReason, Long> asMap(long[] counts) {
    Map<DropReason, Long> map = new EnumMap<>(DropReason.class);
    for (DropReason reason : DropReason.values()) {
      if (counts[reason.ordinal()] != 0) {
        map.put(reason, counts[reason.ordinal()]);
      }
    }
    return map;
  }

  Map<DropReason, Long> droppedMap() {
    return asMap(dropped);
  }
}
