package io.rubinbft.orderer.broadcast;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Fabric's {@code throttle.SharedRateLimiter} (orderer/common/throttle): {@code limit} messages per
 * second shared evenly by the clients seen lately. A client that used its share ({@code limit /
 * clients}, at least nothing) waits for the next {@link #refill()}, which the owner calls once a
 * second; a client not refilled-and-seen for longer than the inactivity timeout is forgotten (its
 * share goes to the others). Thread-safe; the waiting happens on the caller's (virtual) thread.
 */
final class SharedRateLimiter {

  private final int limit;
  private final Duration inactivityTimeout;
  private final Clock clock;
  private final ConcurrentHashMap<String, Client> clients = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** One client's state: what it used of its share, and the one refill it may be waiting for. */
  private static final class Client {
    final AtomicInteger used = new AtomicInteger();
    final Semaphore refilled = new Semaphore(0);
    final ReentrantLock waiting = new ReentrantLock();
    volatile Instant lastSeen;

    Client(Instant now) {
      lastSeen = now;
    }
  }

  SharedRateLimiter(int limit, Duration inactivityTimeout, Clock clock) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
    this.limit = limit;
    this.inactivityTimeout = inactivityTimeout;
    this.clock = clock;
  }

  /**
   * Counts one message of {@code client}, first waiting for the next refill if it used its share.
   *
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  void limitRate(String client) throws InterruptedException {
    Client state = clients.computeIfAbsent(client, key -> new Client(clock.instant()));
    int budget = limit / Math.max(1, clients.size());
    if (state.used.incrementAndGet() <= budget || closed) {
      return;
    }
    // One waiter per client: the client's other streams queue behind it, as in Fabric.
    state.waiting.lockInterruptibly();
    try {
      if (state.used.get() <= budget) {
        return; // another stream of this client waited for the refill meanwhile
      }
      state.refilled.acquire();
      state.lastSeen = clock.instant();
      state.used.set(0);
    } finally {
      state.waiting.unlock();
    }
  }

  /** Fabric's distributeBudget: one refill per client (not accumulated), then the pruning. */
  void refill() {
    Instant now = clock.instant();
    for (var entry : clients.entrySet()) {
      Client state = entry.getValue();
      if (state.refilled.availablePermits() == 0) {
        state.refilled.release();
      }
      if (Duration.between(state.lastSeen, now).compareTo(inactivityTimeout) > 0) {
        clients.remove(entry.getKey(), state);
      }
    }
  }

  /** Lets every waiting client go and stops limiting (the node is stopping). */
  void close() {
    closed = true;
    clients.values().forEach(state -> state.refilled.release(Integer.MAX_VALUE / 2));
  }

  /** How many clients share the limit now. */
  int clients() {
    return clients.size();
  }
}
