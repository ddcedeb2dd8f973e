package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A naive model of one RC connection used in one direction (client sends, server receives), written
 * from the rules in the verbs package documentation, to check the shm provider against. Every
 * operation here mirrors one call on the real pair and predicts its outcome.
 */
final class ReferenceConnection {

  record Send(long id, int length, boolean signaled) {}

  record Receive(long id, int capacity) {}

  /** A completion not handed out yet; {@code sendId} names the send whose bytes a receive holds. */
  record Pending(RecordedCompletion completion, boolean signaled, long sendId) {}

  private final int depth;
  private final int receiverNotReadyRetries;

  private final Deque<Send> unexecuted = new ArrayDeque<>();
  private final Deque<Pending> sendCompletions = new ArrayDeque<>();
  private final Deque<Receive> posted = new ArrayDeque<>();
  private final Deque<Pending> receiveCompletions = new ArrayDeque<>();
  private long sendsOutstanding;
  private long receivesOutstanding;
  private int passes;
  private boolean clientFailed;
  private boolean serverFailed;

  ReferenceConnection(int depth, int receiverNotReadyRetries) {
    this.depth = depth;
    this.receiverNotReadyRetries = receiverNotReadyRetries;
  }

  /** Whether posting {@code count} sends is refused because the send queue is full. */
  boolean sendQueueRefuses(int count) {
    return sendsOutstanding + count > depth;
  }

  boolean receiveQueueRefuses(int count) {
    return receivesOutstanding + count > depth;
  }

  void postSends(List<Send> sends) {
    for (Send send : sends) {
      if (clientFailed) {
        sendCompletions.add(completion(send.id(), CompletionOpcode.SEND, CompletionStatus.FLUSHED));
      } else {
        unexecuted.add(send);
      }
    }
    sendsOutstanding += sends.size();
    clientPass();
  }

  void postReceives(List<Receive> receives) {
    for (Receive receive : receives) {
      if (serverFailed) {
        receiveCompletions.add(
            completion(receive.id(), CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
      } else {
        posted.add(receive);
      }
    }
    receivesOutstanding += receives.size();
  }

  /** One pass of the client's "NIC" (postSend, or a poll of either client queue). */
  void clientPass() {
    if (serverFailed) {
      failClient(CompletionStatus.FLUSHED);
    }
    while (!clientFailed && !unexecuted.isEmpty()) {
      if (posted.isEmpty()) {
        if (++passes > receiverNotReadyRetries) {
          failClient(CompletionStatus.RECEIVER_NOT_READY);
        }
        return;
      }
      passes = 0;
      Receive receive = posted.poll();
      Send send = unexecuted.peek();
      if (send.length() > receive.capacity()) {
        receiveCompletions.add(
            completion(
                receive.id(), CompletionOpcode.RECEIVE, CompletionStatus.LOCAL_LENGTH_ERROR));
        failClient(CompletionStatus.REMOTE_INVALID_REQUEST);
        return;
      }
      unexecuted.poll();
      receiveCompletions.add(
          new Pending(RecordedCompletion.received(receive.id(), send.length()), true, send.id()));
      sendCompletions.add(new Pending(RecordedCompletion.sent(send.id()), send.signaled(), -1));
    }
  }

  /** The client disconnects: everything outstanding on its side is flushed. */
  void disconnectClient() {
    failClient(CompletionStatus.FLUSHED);
  }

  /** The server disconnects: its posted receives are flushed; the client notices on a pass. */
  void disconnectServer() {
    failServer();
  }

  /** One pass over the server's pair: it notices a failed client. */
  void serverPass() {
    if (clientFailed) {
      failServer();
    }
  }

  private void failClient(CompletionStatus headStatus) {
    if (clientFailed) {
      return;
    }
    clientFailed = true;
    CompletionStatus status = headStatus;
    for (Send send : unexecuted) {
      sendCompletions.add(completion(send.id(), CompletionOpcode.SEND, status));
      status = CompletionStatus.FLUSHED;
    }
    unexecuted.clear();
  }

  private void failServer() {
    if (serverFailed) {
      return;
    }
    serverFailed = true;
    for (Receive receive : posted) {
      receiveCompletions.add(
          completion(receive.id(), CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
    }
    posted.clear();
  }

  List<Pending> pollClientSends(int max) {
    clientPass();
    List<Pending> out = new ArrayList<>();
    while (out.size() < max && !sendCompletions.isEmpty()) {
      Pending next = sendCompletions.poll();
      RecordedCompletion completion = next.completion();
      if (next.signaled() || completion.status() != CompletionStatus.SUCCESS) {
        out.add(next);
        sendsOutstanding = (long) unexecuted.size() + sendCompletions.size();
      }
    }
    return out;
  }

  List<Pending> pollServerReceives(int max) {
    serverPass();
    List<Pending> out = new ArrayList<>();
    while (out.size() < max && !receiveCompletions.isEmpty()) {
      Pending next = receiveCompletions.poll();
      receivesOutstanding--;
      CompletionStatus status = next.completion().status();
      if (status != CompletionStatus.SUCCESS && status != CompletionStatus.FLUSHED) {
        failServer();
      }
      out.add(next);
    }
    return out;
  }

  private static Pending completion(long id, CompletionOpcode opcode, CompletionStatus status) {
    return new Pending(RecordedCompletion.of(id, opcode, status), true, -1);
  }
}
