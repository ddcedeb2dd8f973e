package io.rubinbft.orderer.cluster;

import io.rubinbft.orderer.memory.MessageLimits;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/**
 * The frames waiting to be sent to one peer, bounded in bytes, in two lanes that cannot push each
 * other out ({@link MessageLimits#LARGE_MESSAGE_BYTES} divides them): small frames (votes, status,
 * checkpoints, fetch requests, view changes that name proposals by digest) within {@code
 * smallBudget}, and large ones (proposals, state-transfer answers, bodies, forwarded envelopes)
 * within {@code largeBudget}, one transport message's worth. Within its lane a frame that would go
 * over the budget pushes out the oldest ones (PBFT retransmits what still matters, and a peer that
 * fell behind catches up by state transfer), and a frame larger than its lane's budget alone
 * replaces everything in that lane. So a dead, stopped or slow peer costs at most the two budgets,
 * and a maximal proposal neither pushes out the votes queued before it nor is pushed out by those
 * queued after it. Frames leave in the order they came, whatever their lane. Thread-safe: the
 * replica threads add, the network thread takes.
 */
final class OutboundQueue {

  private record Queued(long order, byte[] frame) {}

  private final Lane small;
  private final Lane large;
  private long added;

  OutboundQueue(long smallBudget, long largeBudget) {
    this.small = new Lane(smallBudget);
    this.large = new Lane(largeBudget);
  }

  /** Queues {@code frame}; returns how many older frames of its lane were dropped for it. */
  synchronized int add(byte[] frame) {
    return laneOf(frame).add(new Queued(added++, frame));
  }

  /** The oldest frame, left queued; null when none waits. */
  synchronized byte @Nullable [] peek() {
    Lane oldest = oldestLane();
    return oldest == null ? null : oldest.first().frame();
  }

  /** Removes {@code frame} if it is still the oldest (an add may have dropped it meanwhile). */
  synchronized void remove(byte[] frame) {
    Lane oldest = oldestLane();
    if (oldest != null && oldest.first().frame() == frame) {
      oldest.bytes -= oldest.frames.pollFirst().frame().length;
    }
  }

  synchronized boolean isEmpty() {
    return small.frames.isEmpty() && large.frames.isEmpty();
  }

  /** The bytes queued now. */
  synchronized long bytes() {
    return small.bytes + large.bytes;
  }

  private Lane laneOf(byte[] frame) {
    return MessageLimits.isLarge(frame.length) ? large : small;
  }

  private @Nullable Lane oldestLane() {
    Queued first = small.frames.peekFirst();
    Queued second = large.frames.peekFirst();
    if (first == null || second == null) {
      return first != null ? small : second != null ? large : null;
    }
    return first.order() < second.order() ? small : large;
  }

  /** One lane's frames, oldest first, and their bytes. */
  private static final class Lane {
    private final long budget;
    private final ArrayDeque<Queued> frames = new ArrayDeque<>();
    private long bytes;

    Lane(long budget) {
      if (budget < 1) {
        throw new IllegalArgumentException("a byte budget must be positive, got " + budget);
      }
      this.budget = budget;
    }

    /** The oldest frame; the lane is not empty. */
    Queued first() {
      return frames.getFirst();
    }

    int add(Queued queued) {
      int dropped = 0;
      while (!frames.isEmpty() && bytes + queued.frame().length > budget) {
        bytes -= frames.pollFirst().frame().length;
        dropped++;
      }
      frames.addLast(queued);
      bytes += queued.frame().length;
      return dropped;
    }
  }
}
