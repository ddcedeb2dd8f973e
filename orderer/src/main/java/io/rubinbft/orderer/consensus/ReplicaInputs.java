package io.rubinbft.orderer.consensus;

import io.rubinbft.orderer.memory.ByteBudget;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What waits for one channel's replica thread, bounded in bytes per source: client requests share
 * one budget, and each peer replica has its own, so a flooding or Byzantine peer fills only its own
 * and neither crowds out the other peers nor the clients. An input holds its bytes from its offer
 * until the replica thread {@linkplain Queued#release released} it after its step, so the inputs
 * being stepped count too. Every input is charged {@link MemoryBudgets#ITEM_OVERHEAD_BYTES} on top
 * of its bytes, so a source of tiny inputs is bounded as well.
 *
 * <p>The replica thread takes the sources in turn (each source's inputs in their order), so what a
 * flooding peer queued, each vote a signature check, delays another source's input by one of its
 * own per turn, not by its whole backlog.
 *
 * @param <T> what is queued
 */
final class ReplicaInputs<T> {

  /** An input taken from the queue; {@link #release} gives its bytes back to its source. */
  static final class Queued<T> {
    private final T input;
    private final ByteBudget budget;
    private final long bytes;

    private Queued(T input, ByteBudget budget, long bytes) {
      this.input = input;
      this.budget = budget;
      this.bytes = bytes;
    }

    T input() {
      return input;
    }

    void release() {
      budget.release(bytes);
    }
  }

  private final long peerBudget;
  private final ByteBudget clients;
  private final Map<Integer, ByteBudget> peers = new ConcurrentHashMap<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  // Each source's inputs in arrival order, and the sources with inputs in the order of their turns.
  private final Map<ByteBudget, ArrayDeque<Queued<T>>> bySource = new IdentityHashMap<>();
  private final ArrayDeque<ArrayDeque<Queued<T>>> turns = new ArrayDeque<>();
  private int queued;

  /**
   * @param clientBudget bytes of client requests that may wait
   * @param peerBudget bytes of messages that may wait from each peer
   */
  ReplicaInputs(long clientBudget, long peerBudget) {
    this.clients = new ByteBudget(clientBudget);
    this.peerBudget = peerBudget;
  }

  /** Queues a client's input of {@code bytes}; false when the clients' budget is full. */
  boolean offerClient(T input, long bytes) {
    return offer(clients, input, bytes);
  }

  /** Queues peer {@code from}'s input of {@code bytes}; false when that peer's budget is full. */
  boolean offerPeer(int from, T input, long bytes) {
    return offer(peers.computeIfAbsent(from, peer -> new ByteBudget(peerBudget)), input, bytes);
  }

  private boolean offer(ByteBudget budget, T input, long bytes) {
    long charged = bytes + MemoryBudgets.ITEM_OVERHEAD_BYTES;
    if (!budget.tryReserve(charged)) {
      return false;
    }
    lock.lock();
    try {
      ArrayDeque<Queued<T>> source = bySource.computeIfAbsent(budget, b -> new ArrayDeque<>());
      if (source.isEmpty()) {
        turns.add(source);
      }
      source.add(new Queued<>(input, budget, charged));
      queued++;
      notEmpty.signal();
    } finally {
      lock.unlock();
    }
    return true;
  }

  /** Removes a client's input that is still queued; true when it was (and gives its bytes back). */
  boolean removeClient(T input) {
    lock.lock();
    try {
      ArrayDeque<Queued<T>> source = bySource.getOrDefault(clients, new ArrayDeque<>());
      for (Queued<T> waiting : source) {
        if (waiting.input() == input) {
          source.remove(waiting);
          if (source.isEmpty()) {
            turns.remove(source);
          }
          queued--;
          waiting.release();
          return true;
        }
      }
      return false;
    } finally {
      lock.unlock();
    }
  }

  /** The next input in turn, waiting up to {@code timeout} for one; null when none came. */
  Queued<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
    lock.lock();
    try {
      long nanos = unit.toNanos(timeout);
      while (queued == 0) {
        if (nanos <= 0) {
          return null;
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      return next();
    } finally {
      lock.unlock();
    }
  }

  /** Moves up to {@code max} inputs, in turn, to {@code into}; returns how many. */
  int drainTo(List<Queued<T>> into, int max) {
    lock.lock();
    try {
      int moved = 0;
      while (moved < max && queued > 0) {
        into.add(next());
        moved++;
      }
      return moved;
    } finally {
      lock.unlock();
    }
  }

  /** The oldest input of the source whose turn it is; that source goes last if it has more. */
  private Queued<T> next() {
    ArrayDeque<Queued<T>> source = turns.poll();
    Queued<T> input = source.poll();
    if (!source.isEmpty()) {
      turns.add(source);
    }
    queued--;
    return input;
  }

  /** The bytes the clients' inputs hold now, and their bound. */
  long clientBytes() {
    return clients.used();
  }

  long clientBudget() {
    return clients.limit();
  }

  /** The bytes peer {@code from}'s inputs hold now. */
  long peerBytes(int from) {
    ByteBudget budget = peers.get(from);
    return budget == null ? 0 : budget.used();
  }
}
