package io.rubinbft.orderer.deliver;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.rubinbft.orderer.memory.HeapSize;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The direct memory the blocks being sent to this node's Deliver readers hold together. A block
 * handed to gRPC is serialized whole into Netty's direct buffers and stays there until the reader's
 * flow-control window takes it; each reader holds at most one (its stream waits until the transport
 * is ready again before the next: gRPC's {@code isReady}), and the node's readers together hold at
 * most this budget: a reader whose block finds it full waits for room (one block larger than the
 * budget is still taken when nothing else is held). A reader that does not take its block within
 * {@link #GRACE} plus the block's time at {@link #MIN_BYTES_PER_SECOND} gives way to a waiting one:
 * its stream ends (RESOURCE_EXHAUSTED, the reader retries), so readers that never read cannot hold
 * the budget forever. The budget is the plan's direct memory for blocks being delivered
 * (orderer/docs/MEMORY.md "Sizing"). Thread-safe.
 */
public final class DeliverBytes {

  /** How long any block may take its reader, besides its bytes' time. */
  static final Duration GRACE = Duration.ofSeconds(10);

  /** The slowest reader a block waits for while others wait for room. */
  static final long MIN_BYTES_PER_SECOND = 256 << 10;

  /** How often a reader waiting for room looks for overdue blocks. */
  private static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** A reader holding a block: told when it took too long and gave way (its hold is gone). */
  interface Holder {
    void overdue();
  }

  private record Hold(long bytes, long deadlineNanos) {}

  private final long limit;
  private final LongSupplier nanoTime;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private final IdentityHashMap<Holder, Hold> holds = new IdentityHashMap<>();
  private long used;

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
   * Holds {@code bytes} for {@code holder}, which holds nothing else, first waiting for room.
   *
   * @throws InterruptedException when the reader's call is cancelled meanwhile (nothing held)
   */
  void acquire(Holder holder, long bytes) throws InterruptedException {
    List<Holder> overdue = new ArrayList<>();
    try {
      lock.lockInterruptibly();
      try {
        while (!fits(bytes)) {
          overdue.addAll(dropOverdue());
          if (fits(bytes)) {
            break;
          }
          room.awaitNanos(CHECK_NANOS);
        }
        long now = nanoTime.getAsLong();
        holds.put(holder, new Hold(bytes, now + deadlineNanos(bytes)));
        used += bytes;
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
        room.signalAll();
      }
    } finally {
      lock.unlock();
    }
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
              if (now - entry.getValue().deadlineNanos() < 0) {
                return false;
              }
              used -= entry.getValue().bytes();
              dropped.add(entry.getKey());
              return true;
            });
    return dropped;
  }

  private static long deadlineNanos(long bytes) {
    return GRACE.toNanos() + TimeUnit.SECONDS.toNanos(1) * bytes / MIN_BYTES_PER_SECOND;
  }
}
