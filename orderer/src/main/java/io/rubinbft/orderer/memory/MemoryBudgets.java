package io.rubinbft.orderer.memory;

/**
 * The byte budgets of every queue and buffer that peers and clients can fill, in this one place
 * (orderer/docs/MEMORY.md explains them). They are fixed, and the heap is sized from them ({@link
 * HeapSize}), not the other way round: a node's channels each add their queues, so budgets taken as
 * shares of the heap would claim more than the heap with many channels. Each budget is per source,
 * so a dead, stopped or flooding source costs its own budget and nothing more; what would go beyond
 * it is dropped (peer traffic, which the protocol recovers by retransmission and state transfer) or
 * refused (client requests, which clients retry). A single item larger than its budget is still
 * taken when its source has nothing else queued, so a queue holds at most its budget or one item.
 *
 * @param peerLinkBytes small frames (votes, status, checkpoints) waiting to be sent to one peer;
 *     large frames (proposals, state-transfer answers) wait in a lane of their own, one transport
 *     message's worth ({@link MessageLimits#TRANSPORT_MAX_MESSAGE_BYTES}), so a maximal proposal
 *     and the votes around it both fit
 * @param peerInputBytes one peer's consensus messages (or its forwarded envelopes) waiting for one
 *     channel's replica; a peer's consensus messages have this budget twice, one for the small ones
 *     (votes, status, checkpoints) and one for the large ones (proposals, state-transfer answers;
 *     {@link MessageLimits#LARGE_MESSAGE_BYTES}), so a maximal proposal and the votes after it both
 *     fit
 * @param clientInputBytes client requests waiting for one channel's replica
 * @param requestPoolBytes requests pending in one channel's request pool at least; a channel whose
 *     blocks are larger gets two of them ({@link PoolBytes#forChannel})
 */
public record MemoryBudgets(
    long peerLinkBytes, long peerInputBytes, long clientInputBytes, long requestPoolBytes) {

  private static final long KIB = 1L << 10;

  /**
   * Heap bytes a queued item costs beyond its own bytes (its queue entry, record and array
   * headers), so that many tiny items are bounded too.
   */
  public static final int ITEM_OVERHEAD_BYTES = 128;

  public MemoryBudgets {
    for (long budget :
        new long[] {peerLinkBytes, peerInputBytes, clientInputBytes, requestPoolBytes}) {
      if (budget < 1) {
        throw new IllegalArgumentException("a byte budget must be positive, got " + budget);
      }
    }
  }

  /**
   * Every node's budgets: 1,344 KiB per peer link and per peer and channel, 5,376 KiB of client
   * requests per channel, at least 21 MiB of pooled requests per channel (what a 64th, a 16th and a
   * quarter of the 84 MB heap gave when the budgets were shares of it).
   */
  public static MemoryBudgets standard() {
    return new MemoryBudgets(1344 * KIB, 1344 * KIB, 5376 * KIB, 21 * 1024 * KIB);
  }
}
