package io.rubinbft.net.verbs;

/** Receives completions from {@link CompletionQueue#poll}; valid only during the call. */
@FunctionalInterface
public interface CompletionHandler {

  /**
   * One completed work request.
   *
   * @param queuePairNumber the pair it was posted on
   * @param workRequestId the id it was posted with
   * @param opcode what completed
   * @param status success or why it failed
   * @param byteLength for a receive, the bytes that arrived
   */
  void onCompletion(
      int queuePairNumber,
      long workRequestId,
      CompletionOpcode opcode,
      CompletionStatus status,
      int byteLength);
}
