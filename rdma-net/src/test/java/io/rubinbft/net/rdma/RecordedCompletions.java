package io.rubinbft.net.rdma;

import io.rubinbft.net.verbs.CompletionHandler;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.VerbsException;
import java.util.ArrayList;
import java.util.List;

/** Completions of one queue, kept in arrival order. */
final class RecordedCompletions implements CompletionHandler {

  record Completion(
      int queuePair,
      long workRequestId,
      CompletionOpcode opcode,
      CompletionStatus status,
      int bytes) {}

  final List<Completion> all = new ArrayList<>();
  private final CompletionQueue queue;

  RecordedCompletions(CompletionQueue queue) {
    this.queue = queue;
  }

  @Override
  public void onCompletion(
      int queuePair,
      long workRequestId,
      CompletionOpcode opcode,
      CompletionStatus status,
      int bytes) {
    all.add(new Completion(queuePair, workRequestId, opcode, status, bytes));
  }

  /** Polls until {@code count} completions have arrived in total, and returns them. */
  List<Completion> await(int count) throws VerbsException {
    SoftRoce.awaitUntil(
        count + " completions", () -> all.size() >= count, () -> queue.poll(this, 16));
    return all;
  }

  /** Polls a few more times and returns everything, for checking nothing extra arrived. */
  List<Completion> drain() throws VerbsException {
    for (int i = 0; i < 1_000; i++) {
      queue.poll(this, 16);
    }
    return all;
  }
}
