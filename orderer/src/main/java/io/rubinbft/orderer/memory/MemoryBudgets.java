package io.rubinbft.orderer.memory;

/**
 * The byte budgets of every queue and buffer that peers and clients can fill, derived from the
 * node's heap ceiling in this one place (orderer/docs/MEMORY.md explains the shares). Each budget
 * is per source, so a dead, stopped or flooding source costs its own budget and nothing more; what
 * would go beyond it is dropped (peer traffic, which the protocol recovers by retransmission and
 * state transfer) or refused (client requests, which clients retry). A single item larger than its
 * budget is still taken when its source has nothing else queued, so a queue holds at most its
 * budget or one item.
 *
 * @param heapBytes the heap ceiling the budgets are shares of
 * @param peerLinkBytes frames waiting to be sent to one peer
 * @param peerInputBytes one peer's consensus messages waiting for one channel's replica
 * @param clientInputBytes client requests waiting for one channel's replica
 * @param requestPoolBytes requests pending in the request pools of all channels of this node
 */
public record MemoryBudgets(
    long heapBytes,
    long peerLinkBytes,
    long peerInputBytes,
    long clientInputBytes,
    long requestPoolBytes) {

  /** The request pools of all channels together: a quarter of the heap. */
  static final int POOL_SHARE = 4;

  /** Client requests queued for one channel's replica: a sixteenth of the heap. */
  static final int CLIENT_INPUT_SHARE = 16;

  /** One peer's messages queued for one channel's replica: a 64th of the heap. */
  static final int PEER_INPUT_SHARE = 64;

  /** Frames queued for one peer: a 64th of the heap. */
  static final int PEER_LINK_SHARE = 64;

  /**
   * Heap bytes a queued item costs beyond its own bytes (its queue entry, record and array
   * headers), so that many tiny items are bounded too.
   */
  public static final int ITEM_OVERHEAD_BYTES = 128;

  public MemoryBudgets {
    for (long budget :
        new long[] {heapBytes, peerLinkBytes, peerInputBytes, clientInputBytes, requestPoolBytes}) {
      if (budget < 1) {
        throw new IllegalArgumentException("a byte budget must be positive, got " + budget);
      }
    }
  }

  /** The budgets for a heap of {@code heapBytes}. */
  public static MemoryBudgets ofHeap(long heapBytes) {
    return new MemoryBudgets(
        heapBytes,
        heapBytes / PEER_LINK_SHARE,
        heapBytes / PEER_INPUT_SHARE,
        heapBytes / CLIENT_INPUT_SHARE,
        heapBytes / POOL_SHARE);
  }

  /** The budgets for this JVM's heap ceiling. */
  public static MemoryBudgets ofThisJvm() {
    return ofHeap(Runtime.getRuntime().maxMemory());
  }
}
