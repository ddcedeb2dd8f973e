package io.rubinbft.net.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Ordered access to 64-bit words in mapped memory shared with other processes. A writer publishes
 * with a release store (or a CAS) after filling the bytes the word guards; a reader loads the word
 * with acquire before reading them. These are plain CPU instructions: no system call.
 */
final class SharedWords {

  private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

  private SharedWords() {}

  static long getAcquire(MemorySegment segment, long offset) {
    return (long) LONG.getAcquire(segment, offset);
  }

  static void setRelease(MemorySegment segment, long offset, long value) {
    LONG.setRelease(segment, offset, value);
  }

  /** A load ordered after every earlier load and store (the other half of a Dekker handshake). */
  static long getVolatile(MemorySegment segment, long offset) {
    return (long) LONG.getVolatile(segment, offset);
  }

  /** A store ordered before every later load and store. */
  static void setVolatile(MemorySegment segment, long offset, long value) {
    LONG.setVolatile(segment, offset, value);
  }

  static boolean compareAndSet(MemorySegment segment, long offset, long expected, long value) {
    return LONG.compareAndSet(segment, offset, expected, value);
  }
}
