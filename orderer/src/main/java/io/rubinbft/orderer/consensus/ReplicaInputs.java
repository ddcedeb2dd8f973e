package io.rubinbft.orderer.consensus;

import io.rubinbft.orderer.memory.ByteBudget;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What waits for one channel's replica thread, bounded in bytes per source: client requests share
 * one budget, and each peer replica has its own, so a flooding or Byzantine peer fills only its own
 * and neither crowds out the other peers nor the clients. A peer's budget is two lanes, as its link
 * has on the sending side ({@code cluster.OutboundQueue}): its messages up to {@link
 * MessageLimits#LARGE_MESSAGE_BYTES} (votes, status, checkpoints) and its larger ones (proposals,
 * state-transfer answers, bodies) each within a budget of their own, so a maximal proposal waiting
 * for its step never makes that peer's votes refused, and neither lane takes the other's room; the
 * inputs of both still wait in the one order they came. An input holds its bytes from its offer
 * until the replica thread {@linkplain Queued#release released} it after its step, so the inputs
 * being stepped count too. Every input is charged {@link MemoryBudgets#ITEM_OVERHEAD_BYTES} on top
 * of its bytes, so a source of tiny inputs is bounded as well.
 *
 * <p>The replica thread takes the sources in turn (each source's inputs in their order), so what a
 * flooding peer queued delays another source's input by one of its own per turn, not by its whole
 * backlog. And each peer pays for its inputs' steps out of a time budget of its own ({@link
 * PeerTime}): the replica thread {@linkplain Queued#charge charges} the time it spent stepping a
 * peer's input (its signature checks above all) to that peer, and a peer whose budget is spent gets
 * no turn until it has refilled; its inputs wait (within its byte budget) and nothing is dropped
 * for it. So a peer flooding messages with bad or expensive signatures gets at most its share of
 * the replica thread, however cheap the other sources' inputs are.
 *
 * @param <T> what is queued
 */
final class ReplicaInputs<T> {

  /**
   * A peer's budget of replica-thread time: refilled at {@code share} of the elapsed time (as
   * nanoseconds per nanosecond), held up to {@code burstNanos}. A peer gets turns while its balance
   * is positive.
   */
  record PeerTime(double share, long burstNanos) {

    /**
     * A third of the replica thread per peer, a second of it at once: every honest peer's steps
     * (each peer's share of all the votes, plus a state-transfer answer now and then) fit with
     * room, and a flooder leaves the thread at least two thirds to the others.
     */
    static final PeerTime DEFAULT = new PeerTime(1.0 / 3, TimeUnit.SECONDS.toNanos(1));
  }

  /** An input taken from the queue; {@link #release} gives its bytes back to its source. */
  static final class Queued<T> {
    private final T input;
    private final Source<T> source;
    private final ByteBudget lane;
    private final long bytes;

    private Queued(T input, Source<T> source, ByteBudget lane, long bytes) {
      this.input = input;
      this.source = source;
      this.lane = lane;
      this.bytes = bytes;
    }

    T input() {
      return input;
    }

    void release() {
      lane.release(bytes);
    }

    /** Charges the replica thread's {@code nanos} spent stepping this input to its source. */
    void charge(long nanos) {
      source.charge(nanos);
    }
  }

  /**
   * One source: the byte budgets of its small and large inputs (one budget for both: the clients),
   * its queued inputs, and (a peer's) time balance.
   */
  private static final class Source<T> {
    private final ByteBudget small;
    private final ByteBudget large;
    private final @Nullable PeerTime time; // null: not timed (the clients)
    private final LongSupplier clock;
    private final ReentrantLock lock;
    private final ArrayDeque<Queued<T>> waiting = new ArrayDeque<>();
    // Guarded by lock.
    private long balanceNanos;
    private long refilledAt;

    private Source(
        ByteBudget small,
        ByteBudget large,
        @Nullable PeerTime time,
        LongSupplier clock,
        ReentrantLock lock) {
      this.small = small;
      this.large = large;
      this.time = time;
      this.clock = clock;
      this.lock = lock;
      this.balanceNanos = time == null ? 0 : time.burstNanos();
      this.refilledAt = clock.getAsLong();
    }

    private ByteBudget laneOf(long bytes) {
      return MessageLimits.isLarge(bytes) ? large : small;
    }

    private long used() {
      return small == large ? small.used() : small.used() + large.used();
    }

    private void charge(long nanos) {
      PeerTime time = this.time;
      if (time == null) {
        return;
      }
      lock.lock();
      try {
        refill(time, clock.getAsLong());
        balanceNanos -= Math.max(0, nanos);
      } finally {
        lock.unlock();
      }
    }

    /** Nanoseconds until this source may take a turn again: 0 when it may now. */
    private long untilEligible(long now) {
      PeerTime time = this.time;
      if (time == null) {
        return 0;
      }
      refill(time, now);
      return balanceNanos > 0 ? 0 : (long) Math.ceil((1 - balanceNanos) / time.share());
    }

    private void refill(PeerTime time, long now) {
      long elapsed = now - refilledAt;
      if (elapsed > 0) {
        balanceNanos =
            (long)
                Math.min(
                    (double) time.burstNanos(),
                    (double) balanceNanos + (double) elapsed * time.share());
        refilledAt = now;
      }
    }
  }

  private final long peerBudget;
  private final PeerTime peerTime;
  private final LongSupplier clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Source<T> clients;
  private final Map<Integer, Source<T>> peers = new ConcurrentHashMap<>();
  // The sources with inputs in the order of their turns.
  private final ArrayDeque<Source<T>> turns = new ArrayDeque<>();

  /**
   * @param clientBudget bytes of client requests that may wait
   * @param peerBudget bytes of messages that may wait from each peer in each of its two lanes (its
   *     small messages, its large ones)
   */
  ReplicaInputs(long clientBudget, long peerBudget) {
    this(clientBudget, peerBudget, PeerTime.DEFAULT, System::nanoTime);
  }

  /**
   * @param peerTime each peer's budget of replica-thread time
   * @param clock nanoseconds, as {@link System#nanoTime}
   */
  ReplicaInputs(long clientBudget, long peerBudget, PeerTime peerTime, LongSupplier clock) {
    this.peerBudget = peerBudget;
    this.peerTime = peerTime;
    this.clock = clock;
    ByteBudget clientBytes = new ByteBudget(clientBudget);
    this.clients = new Source<>(clientBytes, clientBytes, null, clock, lock);
  }

  /** Queues a client's input of {@code bytes}; false when the clients' budget is full. */
  boolean offerClient(T input, long bytes) {
    return offer(clients, input, bytes);
  }

  /**
   * Queues peer {@code from}'s input of {@code bytes}; false when that peer's lane for inputs of
   * this size is full.
   */
  boolean offerPeer(int from, T input, long bytes) {
    return offer(
        peers.computeIfAbsent(
            from,
            peer ->
                new Source<>(
                    new ByteBudget(peerBudget), new ByteBudget(peerBudget), peerTime, clock, lock)),
        input,
        bytes);
  }

  private boolean offer(Source<T> source, T input, long bytes) {
    long charged = bytes + MemoryBudgets.ITEM_OVERHEAD_BYTES;
    ByteBudget lane = source.laneOf(bytes);
    if (!lane.tryReserve(charged)) {
      return false;
    }
    lock.lock();
    try {
      if (source.waiting.isEmpty()) {
        turns.add(source);
      }
      source.waiting.add(new Queued<>(input, source, lane, charged));
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
      for (Queued<T> waiting : clients.waiting) {
        if (waiting.input() == input) {
          clients.waiting.remove(waiting);
          if (clients.waiting.isEmpty()) {
            turns.remove(clients);
          }
          waiting.release();
          return true;
        }
      }
      return false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next input in turn, waiting up to {@code timeout} for one; null when none came (or only
   * peers whose time budget is spent have inputs).
   */
  @Nullable Queued<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
    lock.lock();
    try {
      long nanos = unit.toNanos(timeout);
      while (true) {
        long now = clock.getAsLong();
        Queued<T> next = next(now);
        if (next != null) {
          return next;
        }
        if (nanos <= 0) {
          return null;
        }
        long wait = Math.min(nanos, untilAnyEligible(now));
        nanos -= wait - notEmpty.awaitNanos(wait);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Moves up to {@code max} inputs, in turn, to {@code into}; returns how many. */
  int drainTo(List<Queued<T>> into, int max) {
    lock.lock();
    try {
      int moved = 0;
      long now = clock.getAsLong();
      Queued<T> next;
      while (moved < max && (next = next(now)) != null) {
        into.add(next);
        moved++;
      }
      return moved;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The oldest input of the first source in turn that may take one; that source goes last if it has
   * more. Null when none may.
   */
  private @Nullable Queued<T> next(long now) {
    Iterator<Source<T>> inTurn = turns.iterator();
    while (inTurn.hasNext()) {
      Source<T> source = inTurn.next();
      if (source.untilEligible(now) == 0) {
        inTurn.remove();
        Queued<T> input = source.waiting.poll();
        if (!source.waiting.isEmpty()) {
          turns.add(source);
        }
        return input;
      }
    }
    return null;
  }

  /** How long until some waiting source may take a turn (the caller's timeout when none waits). */
  private long untilAnyEligible(long now) {
    long soonest = Long.MAX_VALUE;
    for (Source<T> source : turns) {
      soonest = Math.min(soonest, source.untilEligible(now));
    }
    return Math.max(1, soonest);
  }

  /** The bytes the clients' inputs hold now, and their bound. */
  long clientBytes() {
    return clients.used();
  }

  long clientBudget() {
    return clients.small.limit();
  }

  /** The bytes peer {@code from}'s inputs hold now, in both lanes. */
  long peerBytes(int from) {
    Source<T> source = peers.get(from);
    return source == null ? 0 : source.used();
  }
}
