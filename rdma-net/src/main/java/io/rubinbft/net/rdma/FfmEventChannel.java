package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.rubinbft.net.verbs.EventChannel;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where an idle poller of an rdma-core device sleeps: rdma-core's own completion channel ({@code
 * ibv_comp_channel}), on which every completion queue of the device is created, rdma_cm's event
 * channel, and an eventfd that {@link #wakeup} writes, waited on together with poll(2).
 *
 * <p>{@link #arm} asks each completion queue for an event at its next completion ({@code
 * ibv_req_notify_cq}); rdma_cm's channel and the eventfd need no arming, they stay readable while
 * something waits in them. After a wake-up the completion channel's events are taken ({@code
 * ibv_get_cq_event}, its fd non-blocking) and acknowledged in batches ({@code ibv_ack_cq_events});
 * the caller then polls the queues themselves. The device and the kernel make progress without the
 * poller (a send completes whether or not anyone polls), so arming always succeeds.
 *
 * <p>An armed queue cannot be disarmed: {@link #disarm} leaves it armed, and its next completion
 * queues an event that ends a later {@link #await} at once, which takes the event and so lets the
 * queue be armed again. That costs at most one early wake-up per busy spell and loses nothing.
 *
 * <p>Closing order (the device's close): the queues first, each acknowledging the events it was
 * handed ({@code ibv_destroy_cq} waits for that), then this channel: the completion channel (which
 * refuses to go while a queue uses it) and the eventfd, after which {@link #wakeup} does nothing.
 */
final class FfmEventChannel implements EventChannel {

  private static final int COMPLETIONS = 0;
  private static final int CONNECTIONS = 1;
  private static final int WAKEUPS = 2;
  private static final int POLLED = 3;
  private static final long POLLFD_BYTES = Libc.POLLFD.byteSize();
  private static final long REVENTS = VerbsLayouts.offset(Libc.POLLFD, "revents");
  private static final long CHANNEL_FD = VerbsLayouts.offset(VerbsLayouts.IBV_COMP_CHANNEL, "fd");
  private static final long COUNTER_BYTES = JAVA_LONG.byteSize();
  private static final long NANOS_PER_MILLI = 1_000_000;

  private final RdmaCore core;
  private final MemorySegment completionChannel;
  private final int wakeupFd;
  private final MemorySegment pollFds;
  private final MemorySegment capture;
  private final MemorySegment queueOut;
  private final MemorySegment contextOut;
  private final MemorySegment counterIn;
  private final MemorySegment one;
  private final List<FfmCompletionQueue> queues = new ArrayList<>();
  private final AtomicBoolean wakeupPending = new AtomicBoolean();
  private final Object wakeupLock = new Object();
  private boolean closed;

  private FfmEventChannel(
      RdmaCore core,
      MemorySegment completionChannel,
      int wakeupFd,
      int connectionEventsFd,
      Arena arena) {
    this.core = core;
    this.completionChannel = completionChannel;
    this.wakeupFd = wakeupFd;
    this.pollFds = arena.allocate(Libc.POLLFD, POLLED);
    watch(COMPLETIONS, completionChannel.get(JAVA_INT, CHANNEL_FD));
    watch(CONNECTIONS, connectionEventsFd);
    watch(WAKEUPS, wakeupFd);
    this.capture = arena.allocate(Linker.Option.captureStateLayout());
    this.queueOut = arena.allocate(ADDRESS);
    this.contextOut = arena.allocate(ADDRESS);
    this.counterIn = arena.allocate(JAVA_LONG);
    this.one = arena.allocate(JAVA_LONG);
    one.set(JAVA_LONG, 0, 1L);
  }

  /**
   * Creates the completion channel of the device {@code context} and the wake-up eventfd; {@code
   * connectionEventsFd} is rdma_cm's event channel (non-blocking, owned by the caller).
   */
  static FfmEventChannel open(
      RdmaCore core, MemorySegment context, int connectionEventsFd, Arena arena)
      throws VerbsException {
    MemorySegment channel =
        NativeCalls.callForPointer(
                "ibv_create_comp_channel", core.completionChannel.create(), context)
            .reinterpret(VerbsLayouts.IBV_COMP_CHANNEL.byteSize());
    try {
      Libc.setNonBlocking(channel.get(JAVA_INT, CHANNEL_FD), "the completion channel");
      int wakeupFd = eventFd();
      return new FfmEventChannel(core, channel, wakeupFd, connectionEventsFd, arena);
    } catch (VerbsException | RuntimeException e) {
      NativeCalls.invoke(core.completionChannel.destroy(), channel);
      throw e;
    }
  }

  private static int eventFd() throws VerbsException {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment capture = call.allocate(Linker.Option.captureStateLayout());
      int fd =
          (int) NativeCalls.invoke(Libc.EVENTFD, capture, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
      if (fd < 0) {
        throw new VerbsException(
            "eventfd failed: " + NativeCalls.describeErrno(NativeCalls.errno(capture)));
      }
      return fd;
    }
  }

  private void watch(int index, int fd) {
    MemorySegment entry = pollFds.asSlice(index * POLLFD_BYTES, POLLFD_BYTES);
    entry.set(JAVA_INT, VerbsLayouts.offset(Libc.POLLFD, "fd"), fd);
    entry.set(JAVA_SHORT, VerbsLayouts.offset(Libc.POLLFD, "events"), Libc.POLLIN);
  }

  /** The native completion channel, for ibv_create_cq. */
  MemorySegment completionChannel() {
    return completionChannel;
  }

  /** {@code queue} was created on this channel: it is armed from now on. */
  void add(FfmCompletionQueue queue) {
    queues.add(queue);
  }

  /** {@code queue} is closed: it is armed no more. */
  void remove(FfmCompletionQueue queue) {
    queues.remove(queue);
  }

  @Override
  public boolean arm() throws VerbsException {
    for (int i = 0; i < queues.size(); i++) {
      queues.get(i).arm();
    }
    return true;
  }

  @Override
  public void disarm() {
    // Nothing to withdraw: see the class comment (an armed queue's event ends a later sleep early).
  }

  @Override
  public void await(long timeoutNanos) throws VerbsException {
    if (timeoutNanos <= 0) {
      return;
    }
    // From here on a wakeup writes the eventfd again; one that wrote before still shows in it.
    wakeupPending.set(false);
    int millis = (int) Math.min(Math.ceilDiv(timeoutNanos, NANOS_PER_MILLI), Integer.MAX_VALUE);
    int ready = (int) NativeCalls.invoke(Libc.POLL, capture, pollFds, (long) POLLED, millis);
    if (ready < 0) {
      int errno = NativeCalls.errno(capture);
      if (errno == Libc.EINTR) {
        return; // a signal: return early, the caller polls and decides
      }
      throw new VerbsException("poll on the device's channels failed: " + describe(errno));
    }
    if (readable(COMPLETIONS)) {
      takeCompletionEvents();
    }
    if (readable(WAKEUPS)) {
      drainWakeups();
    }
  }

  private boolean readable(int index) {
    return pollFds.get(JAVA_SHORT, index * POLLFD_BYTES + REVENTS) != 0;
  }

  /** Takes every queued completion event, each disarming its queue, until the channel is empty. */
  private void takeCompletionEvents() throws VerbsException {
    while (true) {
      int result =
          (int)
              NativeCalls.invoke(
                  core.completionChannel.getEvent(),
                  capture,
                  completionChannel,
                  queueOut,
                  contextOut);
      if (result != 0) {
        int errno = NativeCalls.errno(capture);
        if (errno == Libc.EAGAIN) {
          return;
        }
        throw new VerbsException("ibv_get_cq_event failed: " + describe(errno));
      }
      queueAt(queueOut.get(ADDRESS, 0).address()).eventTaken();
    }
  }

  private FfmCompletionQueue queueAt(long address) {
    for (int i = 0; i < queues.size(); i++) {
      FfmCompletionQueue queue = queues.get(i);
      if (queue.nativeQueue().address() == address) {
        return queue;
      }
    }
    // A queue is destroyed only after its taken events are acknowledged, and the kernel drops the
    // events of a destroyed queue: an event names a live queue of this channel.
    throw new IllegalStateException("a completion event names no queue of this channel");
  }

  /** Resets the eventfd's counter (it is readable while non-zero). */
  private void drainWakeups() throws VerbsException {
    long read = (long) NativeCalls.invoke(Libc.READ, capture, wakeupFd, counterIn, COUNTER_BYTES);
    if (read < 0 && NativeCalls.errno(capture) != Libc.EAGAIN) {
      throw new VerbsException(
          "reading the wake-up eventfd failed: " + describe(NativeCalls.errno(capture)));
    }
  }

  /**
   * Writes the eventfd once per sleep (later calls find the write pending). Under a lock with
   * {@link #close}, so a closed descriptor, whose number the process may reuse, is never written.
   */
  @Override
  public void wakeup() {
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

  /** Destroys the completion channel (its queues are closed) and the eventfd. */
  void close() {
    synchronized (wakeupLock) {
      closed = true;
    }
    NativeCalls.callReturningErrno(
        "ibv_destroy_comp_channel", core.completionChannel.destroy(), completionChannel);
    Libc.close(wakeupFd, "the wake-up eventfd");
  }

  private static String describe(int errno) {
    return NativeCalls.describeErrno(errno);
  }
}
