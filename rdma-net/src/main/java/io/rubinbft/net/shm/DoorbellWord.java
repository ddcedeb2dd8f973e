package io.rubinbft.net.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * Flyweight over a device's file {@code dev-KEY/bell}: whether the device's poller is asleep, so
 * that a peer which just gave it work knows whether to ring it awake. The owner writes ASLEEP
 * before its last look at its rings and AWAKE when it wakes; a peer that finds ASLEEP after
 * publishing work swaps it back to AWAKE with a CAS and rings, so of several peers only one pays
 * the system call.
 *
 * <pre>
 *  0                   8         12
 *  +-------------------+---------+----------+
 *  | magic "RUBINSDB"  | version | (unused) |      0
 *  | state: AWAKE 0, ASLEEP 1 (own line)     |     64
 *  +----------------------------------------+    128
 * </pre>
 *
 * <p>Why no wakeup is lost: owner and peer each store, then load the other's word, with a full
 * fence between (Dekker's handshake). The owner stores ASLEEP, then looks at its rings; the peer
 * publishes its delivery (or state change), then loads the state. Sequential consistency of the two
 * fenced pairs means at least one of them sees the other's store: the owner finds the work and does
 * not sleep, or the peer finds ASLEEP and rings.
 */
final class DoorbellWord {

  static final long MAGIC = 0x4244_534e_4942_5552L; // "RUBINSDB" little-endian
  static final int VERSION = 1;
  static final long FILE_BYTES = 128;

  private static final long VERSION_OFFSET = 8;
  private static final long STATE_OFFSET = 64;
  private static final long AWAKE = 0;
  private static final long ASLEEP = 1;

  private final MemorySegment segment;

  DoorbellWord(MemorySegment segment) {
    this.segment = segment;
  }

  /** Writes a fresh header into a zeroed file of {@link #FILE_BYTES}. */
  static DoorbellWord initialize(MemorySegment segment) {
    segment.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
    SharedWords.setRelease(segment, STATE_OFFSET, AWAKE);
    SharedWords.setRelease(segment, 0, MAGIC);
    return new DoorbellWord(segment);
  }

  /** Why a peer's file cannot be used, checked before anything else is read from it. */
  Optional<String> invalidReason() {
    if (segment.byteSize() < FILE_BYTES
        || SharedWords.getAcquire(segment, 0) != MAGIC
        || segment.get(ValueLayout.JAVA_INT, VERSION_OFFSET) != VERSION) {
      return Optional.of("it is no doorbell of this version");
    }
    return Optional.empty();
  }

  /** The owner is about to sleep: every load after this sees what a peer published before it. */
  void markAsleep() {
    SharedWords.setVolatile(segment, STATE_OFFSET, ASLEEP);
    VarHandle.fullFence();
  }

  /** The owner is awake again (or never slept): peers need not ring. */
  void markAwake() {
    SharedWords.setRelease(segment, STATE_OFFSET, AWAKE);
  }

  /**
   * For a peer that just published work: true when the owner is asleep and this caller is the one
   * to ring it (the state is AWAKE again after this, so other peers do not ring too).
   */
  boolean takeSleeper() {
    VarHandle.fullFence();
    return SharedWords.getVolatile(segment, STATE_OFFSET) == ASLEEP
        && SharedWords.compareAndSet(segment, STATE_OFFSET, ASLEEP, AWAKE);
  }
}
