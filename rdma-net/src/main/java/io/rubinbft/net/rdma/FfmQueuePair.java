package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequests;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A reliable-connected queue pair made by {@code rdma_create_qp} on an rdma_cm id, which moves it
 * to INIT at once so receives can be posted before the connection is up. Sends and receives go
 * through the provider's {@code ops.post_send} / {@code ops.post_recv}.
 */
final class FfmQueuePair implements QueuePair {

  private static final long CM_ID_QP = VerbsLayouts.offset(VerbsLayouts.RDMA_CM_ID, "qp");
  private static final long QP_CONTEXT = VerbsLayouts.offset(VerbsLayouts.IBV_QP, "context");
  private static final long QP_NUM = VerbsLayouts.offset(VerbsLayouts.IBV_QP, "qp_num");
  private static final long OPS_POST_SEND =
      VerbsLayouts.offset(VerbsLayouts.IBV_CONTEXT, "ops.post_send");
  private static final long OPS_POST_RECV =
      VerbsLayouts.offset(VerbsLayouts.IBV_CONTEXT, "ops.post_recv");

  private final FfmVerbsDevice device;
  private final MemorySegment cmId;
  private final MemorySegment qp;
  private final int number;
  private final QueuePairSpec spec;
  private final NativeWorkRequests sends;
  private final NativeWorkRequests receives;
  private final MemorySegment postSendFunction;
  private final MemorySegment postReceiveFunction;
  private final MemorySegment badRequest;
  private boolean disconnecting;
  private boolean closed;

  private FfmQueuePair(
      FfmVerbsDevice device, MemorySegment cmId, QueuePairSpec spec, int maxInline, Arena arena) {
    this.device = device;
    this.cmId = cmId;
    this.spec = spec;
    this.qp = cmId.get(ADDRESS, CM_ID_QP).reinterpret(VerbsLayouts.IBV_QP.byteSize());
    this.number = qp.get(JAVA_INT, QP_NUM);
    MemorySegment context =
        qp.get(ADDRESS, QP_CONTEXT).reinterpret(VerbsLayouts.IBV_CONTEXT.byteSize());
    this.postSendFunction = context.get(ADDRESS, OPS_POST_SEND);
    this.postReceiveFunction = context.get(ADDRESS, OPS_POST_RECV);
    this.sends = NativeWorkRequests.forSends(spec.sendQueueDepth(), maxInline, arena);
    this.receives = NativeWorkRequests.forReceives(spec.receiveQueueDepth(), arena);
    this.badRequest = arena.allocate(ADDRESS);
  }

  /** Creates the pair on {@code cmId}, whose device must already be resolved. */
  static FfmQueuePair create(FfmVerbsDevice device, MemorySegment cmId, QueuePairSpec spec)
      throws VerbsException {
    FfmCompletionQueue sendQueue = completionQueue(spec.sendCompletions());
    FfmCompletionQueue receiveQueue = completionQueue(spec.receiveCompletions());
    sendQueue.attach(spec.sendQueueDepth(), true);
    try {
      receiveQueue.attach(spec.receiveQueueDepth(), false);
    } catch (VerbsException e) {
      sendQueue.detach(spec.sendQueueDepth());
      throw e;
    }
    // automatic: the layer above may still fill a closed pair's requests; posting then fails
    Arena arena = Arena.ofAuto();
    try {
      MemorySegment attributes = arena.allocate(VerbsLayouts.IBV_QP_INIT_ATTR);
      attributes.set(ADDRESS, offset("send_cq"), sendQueue.nativeQueue());
      attributes.set(ADDRESS, offset("recv_cq"), receiveQueue.nativeQueue());
      attributes.set(JAVA_INT, offset("cap.max_send_wr"), spec.sendQueueDepth());
      attributes.set(JAVA_INT, offset("cap.max_recv_wr"), spec.receiveQueueDepth());
      attributes.set(JAVA_INT, offset("cap.max_send_sge"), 1);
      attributes.set(JAVA_INT, offset("cap.max_recv_sge"), 1);
      attributes.set(JAVA_INT, offset("cap.max_inline_data"), spec.maxInlineBytes());
      attributes.set(JAVA_INT, offset("qp_type"), VerbsLayouts.IBV_QPT_RC);
      NativeCalls.callChecked(
          "rdma_create_qp on " + device.name(),
          device.core().createQp,
          cmId,
          device.protectionDomain(),
          attributes);
      // rdma_create_qp writes back the capabilities the device granted
      int maxInline = attributes.get(JAVA_INT, offset("cap.max_inline_data"));
      return new FfmQueuePair(device, cmId, spec, maxInline, arena);
    } catch (VerbsException | RuntimeException e) {
      sendQueue.detach(spec.sendQueueDepth());
      receiveQueue.detach(spec.receiveQueueDepth());
      throw e;
    }
  }

  private static long offset(String field) {
    return VerbsLayouts.offset(VerbsLayouts.IBV_QP_INIT_ATTR, field);
  }

  private static FfmCompletionQueue completionQueue(Object queue) {
    if (!(queue instanceof FfmCompletionQueue ffm)) {
      throw new IllegalArgumentException("completion queue was not made by an rdma-core device");
    }
    return ffm;
  }

  MemorySegment cmId() {
    return cmId;
  }

  @Override
  public int number() {
    return number;
  }

  @Override
  public WorkRequests sendRequests() {
    return sends;
  }

  @Override
  public WorkRequests receiveRequests() {
    return receives;
  }

  @Override
  public void postSend(int count) throws VerbsException {
    requireOpen();
    MemorySegment chain = sends.cutChain(count);
    int result;
    try {
      result = (int) RdmaCore.POST_SEND.invokeExact(postSendFunction, qp, chain, badRequest);
    } catch (Throwable t) {
      throw new IllegalStateException("ibv_post_send threw", t);
    } finally {
      sends.mendChain(count);
    }
    if (result != 0) {
      throw postFailed("ibv_post_send", count, sends, result);
    }
  }

  @Override
  public void postReceive(int count) throws VerbsException {
    requireOpen();
    MemorySegment chain = receives.cutChain(count);
    int result;
    try {
      result = (int) RdmaCore.POST_RECV.invokeExact(postReceiveFunction, qp, chain, badRequest);
    } catch (Throwable t) {
      throw new IllegalStateException("ibv_post_recv threw", t);
    } finally {
      receives.mendChain(count);
    }
    if (result != 0) {
      throw postFailed("ibv_post_recv", count, receives, result);
    }
  }

  private VerbsException postFailed(
      String call, int count, NativeWorkRequests requests, int errno) {
    long bad = requests.indexOf(badRequest.get(ADDRESS, 0).address());
    return new VerbsException(
        call
            + " of "
            + count
            + " work requests on queue pair "
            + number
            + " failed at entry "
            + bad
            + ": "
            + NativeCalls.describeErrno(errno));
  }

  @Override
  public void disconnect() throws VerbsException {
    requireOpen();
    if (disconnecting) {
      return;
    }
    disconnecting = true;
    NativeCalls.callChecked(
        "rdma_disconnect of queue pair " + number, device.core().disconnect, cmId);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    NativeCalls.invoke(device.core().destroyQp, cmId);
    completionQueue(spec.sendCompletions()).detach(spec.sendQueueDepth());
    completionQueue(spec.receiveCompletions()).detach(spec.receiveQueueDepth());
    device.destroyConnectionId(cmId);
  }

  /** The native pair is gone once closed: a post must never reach it. */
  private void requireOpen() throws VerbsException {
    if (closed) {
      throw new VerbsException("queue pair " + number + " is closed");
    }
  }
}
