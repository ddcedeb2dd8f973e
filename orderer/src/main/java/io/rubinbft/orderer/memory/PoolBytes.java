package io.rubinbft.orderer.memory;

import io.rubinbft.bft.Refusal;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the request pools of all this node's channels hold together, against their one budget
 * ({@link MemoryBudgets#requestPoolBytes}): ten busy channels share it rather than each claiming
 * its own share of the heap. Each channel's replica host adds the change of its pool after each
 * step, so the sum lags the pools by at most one step per channel. Thread-safe.
 */
public final class PoolBytes {

  private final long limit;
  private final AtomicLong used = new AtomicLong();

  public PoolBytes(long limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a byte budget must be positive, got " + limit);
    }
    this.limit = limit;
  }

  /** Why a request of {@code bytes} may not join a pool now, naming this bound; empty if it may. */
  public Optional<Refusal> refusal(long bytes) {
    long now = used.get();
    if (now + bytes <= limit) {
      return Optional.empty();
    }
    return Optional.of(new Refusal.PoolFull(now + " bytes pending on this node, at most " + limit));
  }

  /** Adds {@code delta} bytes (negative when a pool shrank). */
  public void add(long delta) {
    used.addAndGet(delta);
  }

  public long used() {
    return used.get();
  }

  public long limit() {
    return limit;
  }
}
