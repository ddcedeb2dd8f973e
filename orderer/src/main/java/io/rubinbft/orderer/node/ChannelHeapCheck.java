package io.rubinbft.orderer.node;

import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whether the channels a node serves fit its heap at their worst, summed as the launcher sums a
 * plan ({@link HeapSize}) but from each channel's own config: the node-wide bound on what its
 * channels may hold (windows of proposals in flight and of decided blocks, queues). A join that
 * would take the channels beyond the heap is refused ({@link #refusal}), so the bound holds
 * whatever the operator joins; a channel the node already holds from before (a restart with a
 * smaller heap) is still served, with a warning ({@link #served}), since its chain must stay
 * available.
 */
final class ChannelHeapCheck {

  private static final long MIB = 1L << 20;

  private final MemoryBudgets budgets;
  private final long heapBytes;
  private final TreeMap<String, Long> channelBytes = new TreeMap<>();
  private final TreeMap<String, Integer> channelConsenters = new TreeMap<>();

  ChannelHeapCheck(MemoryBudgets budgets, long heapBytes) {
    this.budgets = budgets;
    this.heapBytes = heapBytes;
  }

  /**
   * Why {@code config}'s channel may not be joined: the channels served and it would need more heap
   * than the node has at their worst; empty when it fits. Counts nothing.
   */
  synchronized Optional<String> refusal(ChannelConfig config) {
    TreeMap<String, Long> bytes = new TreeMap<>(channelBytes);
    TreeMap<String, Integer> consenters = new TreeMap<>(channelConsenters);
    count(config, bytes, consenters);
    return beyondHeap(bytes, consenters, "of this node")
        .map(
            need ->
                String.format(
                    "cannot join channel '%s': with it %s; restart the node with a plan for them"
                        + " (RUBIN_CHANNELS, RUBIN_BLOCK_MAX_BYTES, RUBIN_CONSENTERS;"
                        + " orderer/docs/MEMORY.md \"Sizing\")",
                    config.channelId(), need));
  }

  /** Counts {@code config}'s channel; what is wrong when the channels no longer fit the heap. */
  synchronized Optional<String> served(ChannelConfig config) {
    count(config, channelBytes, channelConsenters);
    return beyondHeap(channelBytes, channelConsenters, "this node serves")
        .map(
            need ->
                need
                    + ": a burst of large blocks can exhaust it; restart it with a plan for them"
                    + " (RUBIN_CHANNELS, RUBIN_BLOCK_MAX_BYTES; orderer/docs/MEMORY.md"
                    + " \"Sizing\")");
  }

  /**
   * Empty when the channels of {@code bytes} fit the heap at their worst; else what they need in
   * words, {@code "the <n> channels <whose> (<names>) need a heap of ... but it has ... MiB"}.
   */
  private Optional<String> beyondHeap(
      Map<String, Long> bytes, Map<String, Integer> consenters, String whose) {
    long needed = needed(bytes, consenters);
    if (needed <= heapBytes) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "the %d channels %s (%s) need a heap of %d MiB at their worst (windows of blocks at"
                + " their AbsoluteMaxBytes, queues, pools, peer links) but it has %d MiB",
            bytes.size(), whose, String.join(", ", bytes.keySet()), needed / MIB, heapBytes / MIB));
  }

  /**
   * How many bytes more heap the channels served need at their worst than the node has; 0 when they
   * fit. Beyond 0 only when a channel the node already held, or a config update of one, took the
   * sum beyond the heap (a join beyond it is refused): the operator's signal to restart the node
   * with a plan for its channels ({@code orderer_channels_heap_shortfall_bytes}).
   */
  synchronized long shortfallBytes() {
    return Math.max(0, needed(channelBytes, channelConsenters) - heapBytes);
  }

  /** Stops counting the channel {@code name}. */
  synchronized void removed(String name) {
    channelBytes.remove(name);
    channelConsenters.remove(name);
  }

  private void count(
      ChannelConfig config, Map<String, Long> bytes, Map<String, Integer> consenters) {
    int count = config.consenters().size();
    consenters.put(config.channelId(), count);
    bytes.put(
        config.channelId(),
        HeapSize.channelBytes(
            budgets,
            count,
            config.pbft().batchMaxCount(),
            config.pbft().batchMaxBytes(),
            config.pbft().requestMaxBytes()));
  }

  private long needed(Map<String, Long> bytes, Map<String, Integer> consenters) {
    int mostConsenters = consenters.values().stream().mapToInt(Integer::intValue).max().orElse(1);
    long live =
        HeapSize.nodeBytes(budgets, mostConsenters)
            + bytes.values().stream().mapToLong(Long::longValue).sum();
    return HeapSize.heapFor(live);
  }
}
