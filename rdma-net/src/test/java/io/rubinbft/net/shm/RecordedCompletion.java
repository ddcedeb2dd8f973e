package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;

/** One completion as a test saw it. */
record RecordedCompletion(
    long workRequestId, CompletionOpcode opcode, CompletionStatus status, int byteLength) {

  static RecordedCompletion received(long workRequestId, int byteLength) {
    return new RecordedCompletion(
        workRequestId, CompletionOpcode.RECEIVE, CompletionStatus.SUCCESS, byteLength);
  }

  static RecordedCompletion sent(long workRequestId) {
    return new RecordedCompletion(
        workRequestId, CompletionOpcode.SEND, CompletionStatus.SUCCESS, 0);
  }

  static RecordedCompletion of(
      long workRequestId, CompletionOpcode opcode, CompletionStatus status) {
    return new RecordedCompletion(workRequestId, opcode, status, 0);
  }
}
