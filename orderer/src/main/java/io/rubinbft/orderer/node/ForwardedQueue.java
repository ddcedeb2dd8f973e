package io.rubinbft.orderer.node;

import io.rubinbft.orderer.memory.ByteBudget;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Envelopes other consenters forwarded, waiting for their check, bounded in bytes per sender: a
 * sender whose envelopes hold its budget gets the next one dropped (it forwards again after its
 * timeout), and never takes room from another sender. Each envelope is charged its bytes and {@link
 * MemoryBudgets#ITEM_OVERHEAD_BYTES}; one larger than the budget passes while its sender holds
 * nothing ({@link ByteBudget}). Offered on network threads, taken by the checking worker.
 */
final class ForwardedQueue {

  /** A received envelope waiting for its check, holding its bytes of its sender's budget. */
  record Held(byte[] envelope, ByteBudget budget, long bytes) {

    /** Gives the envelope's bytes back to its sender's budget (once its check is done). */
    void release() {
      budget.release(bytes);
    }
  }

  private final long senderBudget;
  private final Map<Integer, ByteBudget> budgets = new ConcurrentHashMap<>();
  private final BlockingQueue<Held> received = new LinkedBlockingQueue<>();

  /**
   * @param senderBudget bytes of envelopes from one sender that may wait for their check
   */
  ForwardedQueue(long senderBudget) {
    this.senderBudget = senderBudget;
  }

  /** Queues {@code envelope} of {@code sender} if its budget has room; false if it was dropped. */
  boolean offer(int sender, byte[] envelope) {
    ByteBudget budget = budgets.computeIfAbsent(sender, index -> new ByteBudget(senderBudget));
    long bytes = (long) envelope.length + MemoryBudgets.ITEM_OVERHEAD_BYTES;
    if (!budget.tryReserve(bytes)) {
      return false;
    }
    received.add(new Held(envelope, budget, bytes));
    return true;
  }

  /** The next envelope to check; the caller {@linkplain Held#release releases} it after. */
  Held take() throws InterruptedException {
    return received.take();
  }
}
