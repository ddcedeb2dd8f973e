package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rubinbft.net.verbs.CompletionHandler;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An {@code ibv_cq}, polled through the provider's {@code ops.poll_cq} into a pre-allocated array
 * of {@code ibv_wc}, so polling allocates nothing. It is created on the device's completion channel
 * ({@link FfmEventChannel}), which arms it ({@code ops.req_notify_cq}) before its poller sleeps.
 */
final class FfmCompletionQueue implements CompletionQueue {

  /** Completions read per native call; a poll of more loops. */
  private static final int POLL_BATCH = 32;

  private static final long CQ_CONTEXT = VerbsLayouts.offset(VerbsLayouts.IBV_CQ, "context");
  private static final long OPS_POLL_CQ =
      VerbsLayouts.offset(VerbsLayouts.IBV_CONTEXT, "ops.poll_cq");
  private static final long OPS_REQ_NOTIFY_CQ =
      VerbsLayouts.offset(VerbsLayouts.IBV_CONTEXT, "ops.req_notify_cq");

  /**
   * Completion events taken from the channel before they are acknowledged in one call: each
   * ibv_ack_cq_events takes the queue's mutex. The rest are acknowledged before the queue is
   * destroyed, which waits for every event it reported to be.
   */
  private static final int ACK_BATCH = 16;

  private static final long WC_BYTES = VerbsLayouts.IBV_WC.byteSize();
  private static final long WC_STATUS = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "status");
  private static final long WC_OPCODE = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "opcode");
  private static final long WC_BYTE_LEN = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "byte_len");
  private static final long WC_QP_NUM = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "qp_num");

  private final FfmVerbsDevice device;
  private final MemorySegment cq;
  private final MemorySegment pollFunction;
  private final MemorySegment requestNotifyFunction;
  private final MemorySegment completions;
  private final int capacity;
  private int attachedWorkRequests;
  private boolean servesSends;
  private boolean servesReceives;
  private boolean armed;
  private int unacknowledgedEvents;
  private boolean closed;

  private FfmCompletionQueue(FfmVerbsDevice device, MemorySegment cq, int capacity, Arena arena) {
    this.device = device;
    this.cq = cq.reinterpret(VerbsLayouts.IBV_CQ.byteSize());
    MemorySegment context =
        this.cq.get(ADDRESS, CQ_CONTEXT).reinterpret(VerbsLayouts.IBV_CONTEXT.byteSize());
    this.pollFunction = context.get(ADDRESS, OPS_POLL_CQ);
    this.requestNotifyFunction = context.get(ADDRESS, OPS_REQ_NOTIFY_CQ);
    this.completions = arena.allocate(VerbsLayouts.IBV_WC, POLL_BATCH);
    this.capacity = capacity;
  }

  /** Creates a queue of {@code capacity} entries whose events go to {@code completionChannel}. */
  static FfmCompletionQueue create(
      FfmVerbsDevice device, int capacity, MemorySegment completionChannel, Arena arena)
      throws VerbsException {
    if (capacity < 1) {
      throw new IllegalArgumentException("completion queue capacity is " + capacity);
    }
    MemorySegment cq =
        NativeCalls.callForPointer(
            "ibv_create_cq of " + capacity + " entries on " + device.name(),
            device.core().createCq,
            device.context(),
            capacity,
            MemorySegment.NULL,
            completionChannel,
            0);
    return new FfmCompletionQueue(device, cq, capacity, arena);
  }

  MemorySegment nativeQueue() {
    return cq;
  }

  /**
   * Reserves room for {@code workRequests} more outstanding requests: a completion queue that
   * overflows fails every pair on it, so the sum of the depths attached may not exceed its size.
   */
  void attach(int workRequests, boolean sends) throws VerbsException {
    if (workRequests > capacity - attachedWorkRequests) {
      throw new VerbsException(
          "completion queue of "
              + capacity
              + " entries already serves "
              + attachedWorkRequests
              + " outstanding work requests and cannot take "
              + workRequests
              + " more");
    }
    attachedWorkRequests += workRequests;
    servesSends |= sends;
    servesReceives |= !sends;
  }

  void detach(int workRequests) {
    attachedWorkRequests -= workRequests;
  }

  @Override
  public int poll(CompletionHandler handler, int max) throws VerbsException {
    if (closed) {
      throw new VerbsException("completion queue of " + device.name() + " is closed");
    }
    int total = 0;
    while (total < max) {
      int wanted = Math.min(max - total, POLL_BATCH);
      int polled;
      try {
        polled = (int) RdmaCore.POLL_CQ.invokeExact(pollFunction, cq, wanted, completions);
      } catch (Throwable t) {
        throw new IllegalStateException("ibv_poll_cq threw", t);
      }
      if (polled < 0) {
        throw new VerbsException("ibv_poll_cq on " + device.name() + " failed: " + polled);
      }
      for (int i = 0; i < polled; i++) {
        deliver(handler, i * WC_BYTES);
      }
      total += polled;
      if (polled < wanted) {
        break;
      }
    }
    return total;
  }

  private void deliver(CompletionHandler handler, long wc) {
    CompletionStatus status = WorkCompletionStatus.of(completions.get(JAVA_INT, wc + WC_STATUS));
    handler.onCompletion(
        completions.get(JAVA_INT, wc + WC_QP_NUM),
        completions.get(JAVA_LONG, wc),
        opcode(status, completions.get(JAVA_INT, wc + WC_OPCODE)),
        status,
        completions.get(JAVA_INT, wc + WC_BYTE_LEN));
  }

  /**
   * verbs defines a completion's opcode only when it succeeded; a flushed or failed one is told
   * apart by the queue's role when it serves only sends or only receives (the usual setup), and by
   * the opcode's receive bit otherwise.
   */
  private CompletionOpcode opcode(CompletionStatus status, int opcode) {
    if (status != CompletionStatus.SUCCESS && servesSends != servesReceives) {
      return servesSends ? CompletionOpcode.SEND : CompletionOpcode.RECEIVE;
    }
    return (opcode & VerbsLayouts.IBV_WC_RECV) != 0
        ? CompletionOpcode.RECEIVE
        : CompletionOpcode.SEND;
  }

  /**
   * Asks for an event at the next completion, unless one is asked for already: a queue stays armed
   * until its event is taken from the channel ({@link #eventTaken}), and an event queued while the
   * poller was busy ends its next sleep at once and re-arms it there, so none is lost.
   */
  void arm() throws VerbsException {
    if (armed) {
      return;
    }
    int result;
    try {
      result = (int) RdmaCore.REQ_NOTIFY_CQ.invokeExact(requestNotifyFunction, cq, 0);
    } catch (Throwable t) {
      throw new IllegalStateException("ibv_req_notify_cq threw", t);
    }
    if (result != 0) {
      throw new VerbsException(
          "ibv_req_notify_cq on "
              + device.name()
              + " failed: "
              + NativeCalls.describeErrno(Math.abs(result)));
    }
    armed = true;
  }

  /** Its event was taken from the completion channel: it is disarmed, the event to acknowledge. */
  void eventTaken() {
    armed = false;
    if (++unacknowledgedEvents == ACK_BATCH) {
      acknowledgeEvents();
    }
  }

  private void acknowledgeEvents() {
    if (unacknowledgedEvents > 0) {
      NativeCalls.invoke(device.core().completionChannel.ackEvents(), cq, unacknowledgedEvents);
      unacknowledgedEvents = 0;
    }
  }

  /** Acknowledges the events taken (ibv_destroy_cq waits for that), then destroys the queue. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    acknowledgeEvents();
    NativeCalls.callReturningErrno("ibv_destroy_cq", device.core().destroyCq, cq);
    device.forget(this);
  }
}
