package io.rubinbft.net.verbs;

/**
 * A queue pair's reusable list of work requests, filled in place before a post; every binding's is
 * a {@link WorkRequestList}, which its post copies into the binding's own form (for rdma-core,
 * native {@code ibv_send_wr} / {@code ibv_recv_wr} structs with one scatter-gather entry each).
 */
public interface WorkRequests {

  /** How many entries one post may carry. */
  int capacity();

  /**
   * Fills entry {@code index}.
   *
   * @param workRequestId returned in the completion
   * @param memory registered memory holding the bytes
   * @param offset offset of the bytes in {@code memory}
   * @param length number of bytes (for a receive: the buffer's capacity)
   * @param signaled whether a send produces a completion (ignored for receives: always signaled)
   * @param inline whether the device copies the bytes into the request (sends up to the pair's
   *     inline limit only; ignored for receives)
   */
  void set(
      int index,
      long workRequestId,
      RegisteredMemory memory,
      long offset,
      int length,
      boolean signaled,
      boolean inline);
}
