package io.rubinbft.orderer.node;

import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whether the channels a node serves fit its heap at their worst, summed as the launcher sums a
 * plan ({@link HeapSize}) but from each channel's own config: a node started for a smaller plan
 * than it serves says so, naming the numbers, before a burst of large blocks finds out.
 */
final class ChannelHeapCheck {

  private static final long MIB = 1L << 20;

  private final MemoryBudgets budgets;
  private final long heapBytes;
  private final TreeMap<String, Long> channelBytes = new TreeMap<>();
  private int mostConsenters = 1;

  ChannelHeapCheck(MemoryBudgets budgets, long heapBytes) {
    this.budgets = budgets;
    this.heapBytes = heapBytes;
  }

  /** Counts {@code config}'s channel; what is wrong when the channels no longer fit the heap. */
  synchronized Optional<String> served(ChannelConfig config) {
    int consenters = config.consenters().size();
    mostConsenters = Math.max(mostConsenters, consenters);
    channelBytes.put(
        config.channelId(),
        HeapSize.channelBytes(
            budgets,
            consenters,
            config.pbft().batchMaxCount(),
            config.pbft().batchMaxBytes(),
            config.pbft().requestMaxBytes()));
    long live =
        HeapSize.nodeBytes(budgets, mostConsenters)
            + channelBytes.values().stream().mapToLong(Long::longValue).sum();
    long needed = HeapSize.heapFor(live);
    if (needed <= heapBytes) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "the %d channels this node serves (%s) need a heap of %d MiB at their worst (windows"
                + " of blocks at their AbsoluteMaxBytes, queues, pools, peer links) but it has"
                + " %d MiB: a burst of large blocks can exhaust it; restart it with a plan for"
                + " them (RUBIN_CHANNELS, RUBIN_BLOCK_MAX_BYTES; orderer/docs/MEMORY.md \"Sizing\")",
            channelBytes.size(),
            String.join(", ", channelBytes.keySet()),
            needed / MIB,
            heapBytes / MIB));
  }

  /** Stops counting the channel {@code name}. */
  synchronized void removed(String name) {
    channelBytes.remove(name);
  }
}
