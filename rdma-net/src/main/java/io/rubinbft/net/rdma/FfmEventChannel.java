package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rubinbft.net.verbs.EventChannel;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Where an idle poller of an rdma-core device sleeps: rdma-core's own completion channel ({@code
 * ibv_comp_channel}), on which every completion queue of the device is created, and rdma_cm's event
 * channel, waited on together with poll(2) ({@link FileDescriptorWait}, whose eventfd {@link
 * #wakeup} writes).
 *
 * <p>{@link #arm} asks each completion queue for an event at its next completion ({@code
 * ibv_req_notify_cq}); rdma_cm's channel needs no arming, it stays readable while events wait in
 * it. After a wake-up the completion channel's events are taken ({@code ibv_get_cq_event}, its fd
 * non-blocking) and acknowledged in batches ({@code ibv_ack_cq_events}); the caller then polls the
 * queues themselves. The device and the kernel make progress without the poller (a send completes
 * whether or not anyone polls), so arming always succeeds.
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

  private static final long CHANNEL_FD = VerbsLayouts.offset(VerbsLayouts.IBV_COMP_CHANNEL, "fd");

  private final RdmaCore core;
  private final MemorySegment completionChannel;
  private final FileDescriptorWait wait;
  private final int completions;
  private final MemorySegment capture;
  private final MemorySegment queueOut;
  private final MemorySegment contextOut;
  private final List<FfmCompletionQueue> queues = new ArrayList<>();

  private FfmEventChannel(
      RdmaCore core,
      MemorySegment completionChannel,
      FileDescriptorWait wait,
      int connectionEventsFd,
      Arena arena) {
    this.core = core;
    this.completionChannel = completionChannel;
    this.wait = wait;
    this.completions = wait.watch(completionChannel.get(JAVA_INT, CHANNEL_FD));
    wait.watch(connectionEventsFd);
    this.capture = arena.allocate(NativeCalls.CAPTURE);
    this.queueOut = arena.allocate(ADDRESS);
    this.contextOut = arena.allocate(ADDRESS);
  }

  /**
   * Creates the completion channel of the device {@code context} and the wait; {@code
   * connectionEventsFd} is rdma_cm's event channel (non-blocking, owned by the caller).
   */
  static FfmEventChannel open(
      RdmaCore core, MemorySegment context, int connectionEventsFd, Arena arena)
      throws VerbsException {
    MemorySegment channel =
        NativeCalls.callForPointer(
                "ibv_create_comp_channel", core.completionChannel.create(), context)
            .reinterpret(VerbsLayouts.IBV_COMP_CHANNEL.byteSize());
    FileDescriptorWait wait = null;
    try {
      Libc.setNonBlocking(channel.get(JAVA_INT, CHANNEL_FD), "the completion channel");
      wait = FileDescriptorWait.open(2);
      return new FfmEventChannel(core, channel, wait, connectionEventsFd, arena);
    } catch (VerbsException | RuntimeException e) {
      if (wait != null) {
        wait.close();
      }
      NativeCalls.invoke(core.completionChannel.destroy(), channel);
      throw e;
    }
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
    wait.await(timeoutNanos);
    if (wait.readable(completions)) {
      takeCompletionEvents();
    }
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
        throw new VerbsException("ibv_get_cq_event failed: " + NativeCalls.describeErrno(errno));
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

  @Override
  public void wakeup() {
    wait.wakeup();
  }

  /** Destroys the completion channel (its queues are closed) and the wait. */
  void close() {
    wait.close();
    NativeCalls.callReturningErrno(
        "ibv_destroy_comp_channel", core.completionChannel.destroy(), completionChannel);
  }
}
