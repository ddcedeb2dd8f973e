package io.rubinbft.orderer.deliver;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.metrics.DeliverBudgetMetrics;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The direct memory the blocks being sent to this node's Deliver readers hold together. A block
 * handed to gRPC is serialized whole into Netty's direct buffers and stays there until the reader's
 * flow-control window takes it; each stream holds at most one (it waits until the transport is
 * ready again before the next: gRPC's {@code isReady}), and the node's streams together hold at
 * most this budget: a block that finds it full waits for room (one block larger than the budget is
 * still taken when nothing else is held). The budget is the plan's direct memory for blocks being
 * delivered (orderer/docs/MEMORY.md "Sizing"). Thread-safe.
 *
 * <p>Fairness, so that a reader that stops reading (or reads slowly) costs the others a bounded
 * wait, while a reader alone is never slowed:
 *
 * <ul>
 *   <li><b>Turns.</b> While a block waits for room, every block held longer than its turn ({@link
 *       #TURN_GRACE} plus its bytes at {@link #TURN_BYTES_PER_SECOND}, counted from when it was
 *       handed to gRPC) gives way: its stream is reset, freeing the block in Netty (the reader
 *       retries). Nobody waiting, nobody gives way, however slow.
 *   <li><b>Turns between readers.</b> A reader is the identity that signed the seek request (its
 *       certificate), whatever the number of its streams. The blocks waiting for room are served in
 *       the order of their reader's last block taken into the budget, a reader holding no block
 *       counting as never served, then in their order of arrival: a reader just served waits behind
 *       every other reader already waiting, and a reader holding nothing goes before every reader
 *       holding a block, however many streams that one opens.
 * </ul>
 *
 * <p>The bound: a block of a reader holding no other gets room after at most one block of each
 * reader holding nothing that began to wait before it, and each block ahead of it, like each block
 * held when it began to wait, leaves within its turn (and {@link #CHECK_NANOS} more). With the
 * default plan (a budget of one 10 MB block), a reader stalled on a 10 MB block delays another
 * reader's block at most 12 s and a second, whatever the number of its streams; before these rules,
 * 50 s, and each of its streams took such a turn.
 */
public final class DeliverBytes implements DeliverBudgetMetrics.Readings {

  /** How long any block may take its reader while others wait, besides its bytes' time. */
  static final Duration TURN_GRACE = Duration.ofSeconds(2);

  /** The slowest reader a block waits for while others wait for room. */
  static final long TURN_BYTES_PER_SECOND = 1 << 20;

  /** How often a block waiting for room looks for overdue blocks. */
  static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** A stream holding a block: told when it took too long and gave way (its hold is gone). */
  interface Holder {
    void overdue();
  }

  private record Hold(Object reader, long bytes, long sentNanos) {}

  private record Waiter(Reader reader, long arrival) {}

  /** A reader with a block held or waiting: when it was last served (0: not since it held none). */
  private static final class Reader {
    long lastServed;
    int blocks;
  }

  private final long limit;
  private final LongSupplier nanoTime;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private final IdentityHashMap<Holder, Hold> holds = new IdentityHashMap<>();
  private final List<Waiter> waiting = new ArrayList<>();
  private final Map<Object, Reader> readers = new HashMap<>();
  private final AtomicLong tooSlow = new AtomicLong();
  private final AtomicLong directMemory = new AtomicLong();
  private long used;
  // Order readers' turns and waiters' arrivals.
  private long served;
  private long arrivals;

  public DeliverBytes(long limit) {
    this(limit, System::nanoTime);
  }

  DeliverBytes(long limit, LongSupplier nanoTime) {
    if (limit < 1) {
      throw new IllegalArgumentException("a byte budget must be positive, got " + limit);
    }
    this.limit = limit;
    this.nanoTime = nanoTime;
  }

  /**
   * This JVM's budget: its direct-memory ceiling less what the plan keeps for everything else
   * ({@link HeapSize#DIRECT_BASE_BYTES}), which is the plan's block per channel; half the ceiling
   * when that leaves less.
   */
  public static DeliverBytes forThisJvm() {
    long ceiling =
        Long.parseLong(
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("MaxDirectMemorySize")
                .getValue());
    if (ceiling <= 0) {
      // The JVM's default ceiling: the heap's.
      ceiling = Runtime.getRuntime().maxMemory();
    }
    long beyondBase = ceiling - HeapSize.DIRECT_BASE_BYTES;
    return new DeliverBytes(beyondBase >= ceiling / 2 ? beyondBase : ceiling / 2);
  }

  /**
   * Holds {@code bytes} for {@code holder}, which holds nothing else, first waiting for room and
   * for its turn among the readers waiting.
   *
   * @param reader who reads the block (equal objects for one identity's streams)
   * @throws InterruptedException when the reader's call is cancelled meanwhile (nothing held)
   */
  void acquire(Holder holder, Object reader, long bytes) throws InterruptedException {
    List<Holder> overdue = new ArrayList<>();
    try {
      lock.lockInterruptibly();
      try {
        Reader state = readers.computeIfAbsent(reader, key -> new Reader());
        state.blocks++;
        Waiter waiter = new Waiter(state, ++arrivals);
        waiting.add(waiter);
        try {
          while (next() != waiter || !fits(bytes)) {
            if (next() == waiter) {
              overdue.addAll(dropOverdue());
              if (fits(bytes)) {
                break;
              }
            }
            room.awaitNanos(CHECK_NANOS);
          }
        } catch (InterruptedException e) {
          waiting.remove(waiter);
          forget(reader);
          room.signalAll();
          throw e;
        }
        waiting.remove(waiter);
        state.lastServed = ++served;
        holds.put(holder, new Hold(reader, bytes, nanoTime.getAsLong()));
        used += bytes;
        // The next waiter may fit too.
        room.signalAll();
      } finally {
        lock.unlock();
      }
    } finally {
      // Outside the lock: a holder ends its stream under its own lock, which may be waiting here.
      overdue.forEach(Holder::overdue);
    }
  }

  /** Gives back what {@code holder} holds (its block left the transport, or its call ended). */
  void release(Holder holder) {
    lock.lock();
    try {
      Hold hold = holds.remove(holder);
      if (hold != null) {
        used -= hold.bytes();
        forget(hold.reader());
        room.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Counts a block response that found the node's direct memory full (its stream ended). */
  void directMemoryExhausted() {
    directMemory.incrementAndGet();
  }

  /** The bytes held now. */
  public long used() {
    lock.lock();
    try {
      return used;
    } finally {
      lock.unlock();
    }
  }

  public long limit() {
    return limit;
  }

  @Override
  public long bytesInFlight() {
    return used();
  }

  @Override
  public long bytesBudget() {
    return limit;
  }

  @Override
  public long blocksWaiting() {
    lock.lock();
    try {
      return waiting.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public long gaveWayTooSlow() {
    return tooSlow.get();
  }

  @Override
  public long gaveWayDirectMemory() {
    return directMemory.get();
  }

  /** The waiter whose turn comes first: its reader served longest ago, then the earliest. */
  private @Nullable Waiter next() {
    Waiter first = null;
    long firstServed = Long.MAX_VALUE;
    for (Waiter waiter : waiting) {
      long served = waiter.reader().lastServed;
      if (first == null
          || served < firstServed
          || (served == firstServed && waiter.arrival() < first.arrival())) {
        first = waiter;
        firstServed = served;
      }
    }
    return first;
  }

  private void forget(Object reader) {
    Reader state = readers.get(reader);
    if (state != null && --state.blocks == 0) {
      readers.remove(reader);
    }
  }

  private boolean fits(long bytes) {
    return used == 0 || used + bytes <= limit;
  }

  private List<Holder> dropOverdue() {
    long now = nanoTime.getAsLong();
    List<Holder> dropped = new ArrayList<>();
    holds
        .entrySet()
        .removeIf(
            entry -> {
              Hold hold = entry.getValue();
              if (now - hold.sentNanos() < turnNanos(hold.bytes())) {
                return false;
              }
              used -= hold.bytes();
              forget(hold.reader());
              dropped.add(entry.getKey());
              return true;
            });
    tooSlow.addAndGet(dropped.size());
    return dropped;
  }

  /** How long a block of {@code bytes} may take its reader while others wait. */
  static long turnNanos(long bytes) {
    return TURN_GRACE.toNanos() + TimeUnit.SECONDS.toNanos(1) * bytes / TURN_BYTES_PER_SECOND;
  }
}
