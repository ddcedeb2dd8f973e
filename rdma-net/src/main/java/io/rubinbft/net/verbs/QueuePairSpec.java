package io.rubinbft.net.verbs;

/**
 * Sizes of a reliable-connected queue pair, fixed at creation.
 *
 * @param sendQueueDepth most outstanding send work requests
 * @param receiveQueueDepth most posted receive work requests
 * @param maxInlineBytes largest send the device copies into the work request itself
 * @param sendCompletions queue receiving this pair's send completions
 * @param receiveCompletions queue receiving this pair's receive completions
 */
public record QueuePairSpec(
    int sendQueueDepth,
    int receiveQueueDepth,
    int maxInlineBytes,
    CompletionQueue sendCompletions,
    CompletionQueue receiveCompletions) {

  public QueuePairSpec {
    if (sendQueueDepth < 1 || receiveQueueDepth < 1) {
      throw new IllegalArgumentException(
          "queue depths are "
              + sendQueueDepth
              + "/"
              + receiveQueueDepth
              + " but must be at least 1");
    }
    if (maxInlineBytes < 0) {
      throw new IllegalArgumentException("max inline bytes is " + maxInlineBytes);
    }
  }
}
