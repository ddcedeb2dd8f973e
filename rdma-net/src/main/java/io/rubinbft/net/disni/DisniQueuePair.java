package io.rubinbft.net.disni;

import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCmId;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequests;
import java.io.IOException;

/** A reliable-connected queue pair made through DiSNI on a connection's rdma_cm id. */
final class DisniQueuePair implements QueuePair {

  private final DisniConnection connection;
  private final int number;
  private final DisniSendRequests sends;
  private final DisniReceiveRequests receives;
  private boolean closed;

  private DisniQueuePair(DisniConnection connection, IbvQP queuePair, QueuePairSpec spec)
      throws IOException {
    this.connection = connection;
    this.number = queuePair.getQp_num();
    this.sends = new DisniSendRequests(queuePair, spec.sendQueueDepth(), spec.maxInlineBytes());
    this.receives = new DisniReceiveRequests(queuePair, spec.receiveQueueDepth());
  }

  /** Creates the pair on {@code id}, its completions going to the spec's queues. */
  static DisniQueuePair create(
      DisniConnection connection, RdmaCmId id, IbvPd pd, QueuePairSpec spec) throws VerbsException {
    DisniCompletionQueue sendQueue = queue(spec.sendCompletions());
    DisniCompletionQueue receiveQueue = queue(spec.receiveCompletions());
    IbvQPInitAttr attributes = new IbvQPInitAttr();
    attributes.cap().setMax_send_wr(spec.sendQueueDepth());
    attributes.cap().setMax_recv_wr(spec.receiveQueueDepth());
    attributes.cap().setMax_send_sge(1);
    attributes.cap().setMax_recv_sge(1);
    attributes.cap().setMax_inline_data(spec.maxInlineBytes());
    attributes.setQp_type(IbvQP.IBV_QPT_RC);
    attributes.setSend_cq(sendQueue.nativeQueue());
    attributes.setRecv_cq(receiveQueue.nativeQueue());
    try {
      IbvQP created = id.createQP(pd, attributes);
      if (created == null) {
        throw new VerbsException("rdma_create_qp through DiSNI failed for " + spec);
      }
      sendQueue.serves(true);
      receiveQueue.serves(false);
      return new DisniQueuePair(connection, created, spec);
    } catch (IOException e) {
      throw new VerbsException("rdma_create_qp through DiSNI failed for " + spec, e);
    }
  }

  private static DisniCompletionQueue queue(CompletionQueue queue) {
    if (queue instanceof DisniCompletionQueue disni) {
      return disni;
    }
    throw new IllegalArgumentException("not a completion queue of a DiSNI device: " + queue);
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
    sends.post(count);
  }

  @Override
  public void postReceive(int count) throws VerbsException {
    requireOpen();
    receives.post(count);
  }

  private void requireOpen() throws VerbsException {
    if (closed) {
      throw new VerbsException("queue pair " + number + " is closed");
    }
  }

  @Override
  public void disconnect() throws VerbsException {
    connection.disconnect();
  }

  /** Frees the pre-built calls and destroys the pair with its connection's rdma_cm id. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    sends.free();
    receives.free();
    connection.destroy();
  }

  @Override
  public String toString() {
    return "DiSNI queue pair " + number;
  }
}
