package io.rubinbft.orderer.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes one source holds in a queue, against its budget: a reservation is granted while the
 * source holds less than its budget afterwards, or when it holds nothing (one item larger than the
 * budget still passes alone, so no message is refused for its size alone). Thread-safe: sources
 * reserve on their threads, the queue's consumer releases on its own.
 */
public final class ByteBudget {

  private final long limit;
  private final AtomicLong used = new AtomicLong();

  public ByteBudget(long limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a byte budget must be positive, got " + limit);
    }
    this.limit = limit;
  }

  /** Takes {@code bytes} of the budget if they fit; false (and nothing taken) when they do not. */
  public boolean tryReserve(long bytes) {
    while (true) {
      long current = used.get();
      if (current > 0 && current + bytes > limit) {
        return false;
      }
      if (used.compareAndSet(current, current + bytes)) {
        return true;
      }
    }
  }

  /** Gives back {@code bytes} an earlier {@link #tryReserve} took. */
  public void release(long bytes) {
    used.addAndGet(-bytes);
  }

  public long used() {
    return used.get();
  }

  public long limit() {
    return limit;
  }
}
