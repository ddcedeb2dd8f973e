package io.rubinbft.orderer.memory;

import io.rubinbft.bft.Refusal;
import java.util.Optional;

/**
 * The byte bound of one channel's request pool: room for the blocks the channel can cut, at least
 * two proposals at its cap with what holding each of their requests costs (so the next block fills
 * while one is proposed), and never less than the node's floor ({@link
 * MemoryBudgets#requestPoolBytes}). Each channel has its own, summed over the node's channels in
 * its heap ({@link HeapSize#channelBytes}): a busy channel fills its own pool, never another's.
 *
 * @param limit the bytes the pool may hold, its requests' own and their overhead
 */
public record PoolBytes(long limit) {

  public PoolBytes {
    if (limit < 1) {
      throw new IllegalArgumentException("a byte budget must be positive, got " + limit);
    }
  }

  /**
   * The pool of a channel whose proposals hold at most {@code pipeline.batchMaxBytes()} bytes in at
   * most {@code batchMaxCount} requests.
   */
  public static PoolBytes forChannel(MemoryBudgets budgets, Pipeline pipeline, int batchMaxCount) {
    // Each request is at least one byte, so a proposal holds at most that many of them.
    long requests = Math.min(Math.max(batchMaxCount, 1), pipeline.batchMaxBytes());
    long block = pipeline.batchMaxBytes() + requests * MemoryBudgets.ITEM_OVERHEAD_BYTES;
    return new PoolBytes(Math.max(budgets.requestPoolBytes(), 2 * block));
  }

  /**
   * Why a request of {@code bytes} may not join a pool that holds {@code pendingBytes}, naming this
   * bound; empty if it may.
   */
  public Optional<Refusal> refusal(long pendingBytes, long bytes) {
    if (pendingBytes + bytes <= limit) {
      return Optional.empty();
    }
    return Optional.of(
        new Refusal.PoolFull(pendingBytes + " bytes pending on this channel, at most " + limit));
  }
}
