package io.rubinbft.ledger;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Which tx ids one channel's index may hold: a Bloom filter in front of the index, so that a lookup
 * of an id the channel never ordered (every new transaction at Broadcast and in a backup's proposal
 * check) answers without a RocksDB seek.
 *
 * <p>Exact through {@link TxIndex}: "absent" is answered only for an id that was never added, and a
 * false positive falls through to the index. Every id the index holds is in the filter: it is built
 * from the index when the channel opens, and an append adds its ids before the write that puts them
 * in the index. An append whose write fails leaves its ids in the filter, which only costs seeks.
 *
 * <p>Bounded: sized for {@code minIds} ids, rebuilt from the index four times as large when appends
 * fill it, and dropped once the channel holds more than {@code maxIds} (every lookup then seeks,
 * and RocksDB's prefix filters of the index answer, see {@link LedgerDatabase}); at {@value
 * #FALSE_POSITIVES} false positives an id costs ~10 bits. Guava's filter is lock-free and
 * thread-safe: lookups run on the callers' threads while the append lock's holder adds.
 */
final class TxIdFilter {

  /** The ids a channel's filter is first sized for. */
  static final int MIN_IDS = 1 << 16;

  /** The most ids a channel's filter holds; past them it is dropped. */
  static final int MAX_IDS = 1 << 20;

  static final double FALSE_POSITIVES = 0.01;

  /**
   * The heap a channel's filter holds at most: the largest filter, and while it is built the one it
   * replaces.
   */
  static final long MAX_HEAP_BYTES = heapBytes(MAX_IDS) + heapBytes(MAX_IDS / 4);

  /** The ids the index holds now, read in full (a rebuild's source). */
  interface Source {

    /**
     * Hands every tx id of the channel's index to {@code sink}, one per occurrence, stopping after
     * {@code limit} + 1.
     *
     * @return how many it handed over
     */
    int forEachId(int limit, Consumer<byte[]> sink);
  }

  private final Source index;
  private final int maxIds;
  private volatile @Nullable BloomFilter<byte[]> ids;
  // Written under the channel's append lock, as add is (or in the constructor).
  private long added;
  private long capacity;

  TxIdFilter(Source index, int minIds, int maxIds) {
    if (minIds <= 0 || maxIds < minIds) {
      throw new IllegalArgumentException("filter sizes " + minIds + ".." + maxIds);
    }
    this.index = index;
    this.maxIds = maxIds;
    rebuild(minIds);
  }

  /**
   * The bytes of a filter sized for {@code ids}: Guava's bit array (its optimal bits for the false
   * positive rate, in longs) and a few objects around it.
   */
  static long heapBytes(long ids) {
    double bits = -ids * Math.log(FALSE_POSITIVES) / (Math.log(2) * Math.log(2));
    return Math.ceilDiv((long) bits, Long.SIZE) * Long.BYTES + 256;
  }

  /** False only if {@code txId} was never added: the index does not hold it. */
  boolean mayHold(byte[] txId) {
    BloomFilter<byte[]> filter = ids;
    return filter == null || filter.mightContain(txId);
  }

  /** Adds ids before the index holds them; under the channel's append lock. */
  void add(List<byte[]> txIds) {
    if (ids == null) {
      return;
    }
    long needed = added + txIds.size();
    if (needed > capacity) {
      if (needed > maxIds) {
        ids = null;
        return;
      }
      rebuild((int) Math.min(maxIds, Math.max(needed, capacity * 4)));
    }
    BloomFilter<byte[]> filter = ids;
    if (filter == null) {
      return;
    }
    for (byte[] txId : txIds) {
      filter.put(txId);
    }
    added += txIds.size();
  }

  /** A filter for {@code size} ids holding the index's, larger if they do not fit, or none. */
  private void rebuild(int size) {
    BloomFilter<byte[]> filter =
        BloomFilter.create(Funnels.byteArrayFunnel(), size, FALSE_POSITIVES);
    int held = index.forEachId(size, filter::put);
    if (held <= size) {
      added = held;
      capacity = size;
      ids = filter;
    } else if (size < maxIds) {
      rebuild((int) Math.min(maxIds, (long) size * 4));
    } else {
      ids = null;
    }
  }
}
