package io.rubinbft.orderer.cluster;

import java.util.ArrayDeque;

/**
 * The frames waiting to be sent to one peer, bounded in bytes: a frame that would take the queue
 * over its budget pushes out the oldest ones (PBFT retransmits what still matters, and a peer that
 * fell behind catches up by state transfer), and a frame larger than the budget alone replaces
 * everything queued. So a dead, stopped or slow peer costs at most its budget or one frame.
 * Thread-safe: the replica threads add, the network thread takes.
 */
final class OutboundQueue {

  private final long budget;
  private final ArrayDeque<byte[]> frames = new ArrayDeque<>();
  private long bytes;

  OutboundQueue(long budget) {
    if (budget < 1) {
      throw new IllegalArgumentException("a byte budget must be positive, got " + budget);
    }
    this.budget = budget;
  }

  /** Queues {@code frame}; returns how many older frames were dropped to make room for it. */
  synchronized int add(byte[] frame) {
    int dropped = 0;
    while (!frames.isEmpty() && bytes + frame.length > budget) {
      bytes -= frames.pollFirst().length;
      dropped++;
    }
    frames.addLast(frame);
    bytes += frame.length;
    return dropped;
  }

  /** The oldest frame, left queued; null when none waits. */
  synchronized byte[] peek() {
    return frames.peekFirst();
  }

  /** Removes {@code frame} if it is still the oldest (an add may have dropped it meanwhile). */
  synchronized void remove(byte[] frame) {
    if (frames.peekFirst() == frame) {
      frames.pollFirst();
      bytes -= frame.length;
    }
  }

  synchronized boolean isEmpty() {
    return frames.isEmpty();
  }

  /** The bytes queued now. */
  synchronized long bytes() {
    return bytes;
  }
}
