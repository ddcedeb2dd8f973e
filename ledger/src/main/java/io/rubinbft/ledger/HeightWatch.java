package io.rubinbft.ledger;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;

/**
 * A channel's height for those who wait for new blocks (Deliver): blocking waits with a timeout,
 * and listeners called on the appending thread after each append. A limit on listeners keeps a
 * flood of Deliver streams from growing the list without bound.
 */
final class HeightWatch {

  private final String channel;
  private final int maxListeners;
  private final List<LongConsumer> listeners = new CopyOnWriteArrayList<>();

  @GuardedBy("this")
  private long height;

  @GuardedBy("this")
  private boolean closed;

  HeightWatch(String channel, long height, int maxListeners) {
    this.channel = channel;
    this.height = height;
    this.maxListeners = maxListeners;
  }

  void advance(long newHeight) {
    synchronized (this) {
      height = newHeight;
      notifyAll();
    }
    for (LongConsumer listener : listeners) {
      listener.accept(newHeight);
    }
  }

  /** Wakes every waiter for good: the channel was removed or the store closed. */
  synchronized void close() {
    closed = true;
    notifyAll();
  }

  /** Waits until the height is at least {@code atLeast}; false on timeout or when closed. */
  synchronized boolean await(long atLeast, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (height < atLeast && !closed) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        return false;
      }
      wait(remaining / 1_000_000, (int) (remaining % 1_000_000));
    }
    return height >= atLeast;
  }

  HeightSubscription subscribe(LongConsumer listener) {
    synchronized (this) {
      if (listeners.size() >= maxListeners) {
        throw new IllegalStateException(
            "channel '"
                + channel
                + "' already has "
                + maxListeners
                + " height listeners, the limit");
      }
      listeners.add(listener);
    }
    return () -> listeners.remove(listener);
  }
}
