package io.rubinbft.net.disni;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPollCq;
import io.rubinbft.net.rdma.WorkCompletionStatus;
import io.rubinbft.net.verbs.CompletionHandler;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;

/**
 * A completion queue polled through DiSNI's pre-built poll calls into pre-allocated work
 * completions: a batch call, and a single one so that a poll never takes more than it was asked.
 */
final class DisniCompletionQueue implements CompletionQueue {

  private static final int POLL_BATCH = 32;
  private static final int IBV_WC_RECV = 128;

  private final IbvCQ queue;
  private final IbvWC[] batch = newCompletions(POLL_BATCH);
  private final IbvWC[] single = newCompletions(1);
  private final SVCPollCq pollBatch;
  private final SVCPollCq pollSingle;
  private boolean servesSends;
  private boolean servesReceives;
  private boolean closed;

  DisniCompletionQueue(IbvCQ queue) throws IOException {
    this.queue = queue;
    this.pollBatch = queue.poll(batch, POLL_BATCH);
    this.pollSingle = queue.poll(single, 1);
  }

  private static IbvWC[] newCompletions(int count) {
    IbvWC[] completions = new IbvWC[count];
    for (int i = 0; i < count; i++) {
      completions[i] = new IbvWC();
    }
    return completions;
  }

  IbvCQ nativeQueue() {
    return queue;
  }

  /** A queue pair uses this queue for its sends (or its receives). */
  void serves(boolean sends) {
    servesSends |= sends;
    servesReceives |= !sends;
  }

  @Override
  public int poll(CompletionHandler handler, int max) throws VerbsException {
    if (closed) {
      throw new VerbsException("completion queue is closed");
    }
    int total = 0;
    try {
      while (total < max) {
        boolean whole = max - total >= POLL_BATCH;
        IbvWC[] into = whole ? batch : single;
        int polled = (whole ? pollBatch : pollSingle).execute().getPolls();
        for (int i = 0; i < polled; i++) {
          deliver(handler, into[i]);
        }
        total += polled;
        if (polled < into.length) {
          break;
        }
      }
    } catch (IOException e) {
      throw new VerbsException("ibv_poll_cq through DiSNI failed", e);
    }
    return total;
  }

  private void deliver(CompletionHandler handler, IbvWC completion) {
    CompletionStatus status = WorkCompletionStatus.of(completion.getStatus());
    handler.onCompletion(
        completion.getQp_num(),
        completion.getWr_id(),
        opcode(status, completion.getOpcode()),
        status,
        completion.getByte_len());
  }

  /**
   * A failed completion's opcode is undefined in verbs: the queue's role tells, where it has one.
   */
  private CompletionOpcode opcode(CompletionStatus status, int opcode) {
    if (status != CompletionStatus.SUCCESS && servesSends != servesReceives) {
      return servesSends ? CompletionOpcode.SEND : CompletionOpcode.RECEIVE;
    }
    return (opcode & IBV_WC_RECV) != 0 ? CompletionOpcode.RECEIVE : CompletionOpcode.SEND;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    pollBatch.free();
    pollSingle.free();
    try {
      queue.destroyCQ();
    } catch (IOException e) {
      throw new IllegalStateException("ibv_destroy_cq through DiSNI failed", e);
    }
  }
}
