package io.rubinbft.orderer.consensus;

import io.rubinbft.orderer.memory.ByteBudget;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What waits for one channel's replica thread, bounded in bytes per source: client requests share
 * one budget, and each peer replica has its own, so a flooding or Byzantine peer fills only its own
 * and neither crowds out the other peers nor the clients. An input holds its bytes from its offer
 * until the replica thread {@linkplain Queued#release released} it after its step, so the inputs
 * being stepped count too. Every input is charged {@link MemoryBudgets#ITEM_OVERHEAD_BYTES} on top
 * of its bytes, so a source of tiny inputs is bounded as well.
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
  private final BlockingQueue<Queued<T>> queue = new LinkedBlockingQueue<>();

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
    queue.add(new Queued<>(input, budget, charged));
    return true;
  }

  /** Removes a client's input that is still queued; true when it was (and gives its bytes back). */
  boolean removeClient(T input) {
    for (Queued<T> queued : queue) {
      if (queued.input() == input && queue.remove(queued)) {
        queued.release();
        return true;
      }
    }
    return false;
  }

  Queued<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
    return queue.poll(timeout, unit);
  }

  int drainTo(List<Queued<T>> into, int max) {
    return queue.drainTo(into, max);
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
