package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sleeps in poll(2) until one of the watched file descriptors is readable (a verbs completion
 * channel, rdma_cm's event channel), {@link #wakeup} is called from any thread, or a timeout
 * passes. The wake-up is an eventfd watched with the others. One thread watches and awaits; the
 * descriptors stay the caller's, the eventfd is this object's.
 *
 * <p>{@link #wakeup} writes the eventfd only when no earlier write is still unread (later calls
 * find it pending; the wait that reads it clears the flag), under a lock shared with {@link
 * #close}, so a closed descriptor, whose number the process may reuse, is never written.
 */
final class FileDescriptorWait implements AutoCloseable {

  private static final long POLLFD_BYTES = Libc.POLLFD.byteSize();
  private static final long FD = offset("fd");
  private static final long EVENTS = offset("events");
  private static final long REVENTS = offset("revents");
  private static final long COUNTER_BYTES = JAVA_LONG.byteSize();
  private static final long NANOS_PER_MILLI = 1_000_000;

  private final Arena arena;
  private final int capacity;
  private final int wakeupFd;
  private final MemorySegment pollFds;
  private final MemorySegment capture;
  private final MemorySegment counterIn;
  private final MemorySegment one;
  private final AtomicBoolean wakeupPending = new AtomicBoolean();
  private final Object wakeupLock = new Object();
  private int watched;

  @GuardedBy("wakeupLock")
  private boolean closed;

  private FileDescriptorWait(Arena arena, int capacity, int wakeupFd) {
    this.arena = arena;
    this.capacity = capacity;
    this.wakeupFd = wakeupFd;
    this.pollFds = arena.allocate(Libc.POLLFD, capacity + 1L);
    this.capture = arena.allocate(NativeCalls.CAPTURE);
    this.counterIn = arena.allocate(JAVA_LONG);
    this.one = arena.allocate(JAVA_LONG);
    one.set(JAVA_LONG, 0, 1L);
    set(0, wakeupFd);
  }

  private static long offset(String field) {
    return Libc.POLLFD.byteOffset(PathElement.groupElement(field));
  }

  /** Opens a wait for at most {@code capacity} descriptors besides its own eventfd. */
  static FileDescriptorWait open(int capacity) throws VerbsException {
    if (capacity < 1) {
      throw new IllegalArgumentException("a wait watches at least one descriptor, not " + capacity);
    }
    // Owned by the object built on it, whose close() closes it (and closed here on failure).
    @SuppressWarnings("MustBeClosedChecker")
    Arena arena = Arena.ofShared();
    try {
      MemorySegment capture = arena.allocate(NativeCalls.CAPTURE);
      int fd =
          (int) NativeCalls.invoke(Libc.EVENTFD, capture, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
      if (fd < 0) {
        throw new VerbsException(
            "eventfd failed: " + NativeCalls.describeErrno(NativeCalls.errno(capture)));
      }
      return new FileDescriptorWait(arena, capacity, fd);
    } catch (VerbsException | RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  /** Watches {@code fd} from now on; returns its index for {@link #readable}. */
  int watch(int fd) {
    if (watched == capacity) {
      throw new IllegalStateException("already watching " + capacity + " descriptors");
    }
    set(++watched, fd);
    return watched - 1;
  }

  /** Watches nothing but the wake-up until {@link #watch} is called again. */
  void unwatchAll() {
    watched = 0;
  }

  private void set(int slot, int fd) {
    MemorySegment entry = pollFds.asSlice(slot * POLLFD_BYTES, POLLFD_BYTES);
    entry.set(JAVA_INT, FD, fd);
    entry.set(JAVA_SHORT, EVENTS, Libc.POLLIN);
    entry.set(JAVA_SHORT, REVENTS, (short) 0);
  }

  /**
   * Sleeps until a watched descriptor is readable, {@link #wakeup} is called (now or since the last
   * await), or {@code timeoutNanos} pass (rounded up to a millisecond; zero or less: does not
   * sleep). Returns early on a signal. {@link #readable} then says which descriptors are.
   */
  void await(long timeoutNanos) throws VerbsException {
    for (int slot = 0; slot <= watched; slot++) {
      pollFds.set(JAVA_SHORT, slot * POLLFD_BYTES + REVENTS, (short) 0);
    }
    if (timeoutNanos <= 0) {
      return;
    }
    int millis = (int) Math.min(Math.ceilDiv(timeoutNanos, NANOS_PER_MILLI), Integer.MAX_VALUE);
    int ready = (int) NativeCalls.invoke(Libc.POLL, capture, pollFds, watched + 1L, millis);
    if (ready < 0) {
      int errno = NativeCalls.errno(capture);
      if (errno == Libc.EINTR) {
        return;
      }
      throw new VerbsException("poll failed: " + NativeCalls.describeErrno(errno));
    }
    if (revents(0) != 0) {
      drainWakeups();
    }
  }

  /** Whether the descriptor at {@code index} was readable (or failed) when the last await ended. */
  boolean readable(int index) {
    return revents(index + 1) != 0;
  }

  private short revents(int slot) {
    return pollFds.get(JAVA_SHORT, slot * POLLFD_BYTES + REVENTS);
  }

  /**
   * Resets the eventfd's counter (it is readable while non-zero), then lets the next wakeup write
   * again. In that order: a wakeup that lands in between finds the write pending and writes
   * nothing, which is right, as it ends this await (still running); cleared first, its write could
   * be read here and leave the flag set with nothing in the eventfd, and every later wakeup would
   * be lost.
   */
  private void drainWakeups() throws VerbsException {
    long read = (long) NativeCalls.invoke(Libc.READ, capture, wakeupFd, counterIn, COUNTER_BYTES);
    int errno = NativeCalls.errno(capture);
    wakeupPending.set(false);
    if (read < 0 && errno != Libc.EAGAIN) {
      throw new VerbsException(
          "reading the wake-up eventfd failed: " + NativeCalls.describeErrno(errno));
    }
  }

  /** Ends the current {@link #await} at once, or makes the next one return at once. Any thread. */
  void wakeup() {
    if (!wakeupPending.compareAndSet(false, true)) {
      return;
    }
    synchronized (wakeupLock) {
      if (!closed) {
        // Cannot fail short of a counter at 2^64 - 2; a failed write would only mean a timed wake.
        NativeCalls.invoke(Libc.WRITE, wakeupFd, one, COUNTER_BYTES);
      }
    }
  }

  /** Closes the eventfd; a later {@link #wakeup} does nothing. */
  @Override
  public void close() {
    synchronized (wakeupLock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    Libc.close(wakeupFd, "the wake-up eventfd");
    arena.close();
  }
}
