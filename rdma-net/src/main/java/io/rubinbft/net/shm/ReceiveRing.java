package io.rubinbft.net.shm;

import static io.rubinbft.net.shm.QueuePairFileDescriptor.DELIVERED_CLOSED;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVES_DELIVERED_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVES_POSTED_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVE_SLOTS_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_BYTES;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_BYTE_LENGTH;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_LENGTH;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_REGION;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_STATUS;

import io.rubinbft.net.verbs.CompletionStatus;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over a side's receive queue: a single-producer/single-consumer ring of posted receive
 * descriptors (where the peer may write: region, offset, capacity; the work request ids stay in the
 * owner's process). The owner posts (fills slots, then publishes {@code posted} with release); the
 * peer's sender consumes the oldest, copies its message into the slot's buffer, writes length and
 * status into the slot and publishes {@code delivered} with a CAS. The owner closes the ring by
 * setting {@link QueuePairFileDescriptor#DELIVERED_CLOSED} with a CAS too, so a delivery and a
 * close can never both claim the same slot. Positions are counts since creation; a slot is {@code
 * position % depth}.
 */
final class ReceiveRing {

  private final MemorySegment segment;
  private final int depth;

  ReceiveRing(MemorySegment segment, int depth) {
    this.segment = segment;
    this.depth = depth;
  }

  long posted() {
    return SharedWords.getAcquire(segment, RECEIVES_POSTED_OFFSET);
  }

  void publishPosted(long posted) {
    SharedWords.setRelease(segment, RECEIVES_POSTED_OFFSET, posted);
  }

  /** The delivered count, with {@link QueuePairFileDescriptor#DELIVERED_CLOSED} when closed. */
  long deliveredWord() {
    return SharedWords.getAcquire(segment, RECEIVES_DELIVERED_OFFSET);
  }

  static boolean isClosed(long deliveredWord) {
    return (deliveredWord & DELIVERED_CLOSED) != 0;
  }

  static long count(long deliveredWord) {
    return deliveredWord & ~DELIVERED_CLOSED;
  }

  /** Publishes one delivery; false when the owner closed the ring first. */
  boolean publishDelivery(long position) {
    return SharedWords.compareAndSet(segment, RECEIVES_DELIVERED_OFFSET, position, position + 1);
  }

  /** Closes the ring; returns how many receives were delivered before it closed. */
  long close() {
    while (true) {
      long word = deliveredWord();
      if (isClosed(word)
          || SharedWords.compareAndSet(
              segment, RECEIVES_DELIVERED_OFFSET, word, word | DELIVERED_CLOSED)) {
        return count(word);
      }
    }
  }

  void post(long position, int regionId, long offset, int length) {
    long slot = slot(position);
    segment.set(ValueLayout.JAVA_LONG, slot + SLOT_OFFSET, offset);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_REGION, regionId);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_LENGTH, length);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_BYTE_LENGTH, 0);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_STATUS, 0);
  }

  /** Written by the peer before {@link #publishDelivery}. */
  void complete(long position, int byteLength, CompletionStatus status) {
    long slot = slot(position);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_BYTE_LENGTH, byteLength);
    segment.set(
        ValueLayout.JAVA_INT, slot + SLOT_STATUS, QueuePairFileDescriptor.statusCode(status));
  }

  long offset(long position) {
    return segment.get(ValueLayout.JAVA_LONG, slot(position) + SLOT_OFFSET);
  }

  int regionId(long position) {
    return segment.get(ValueLayout.JAVA_INT, slot(position) + SLOT_REGION);
  }

  int length(long position) {
    return segment.get(ValueLayout.JAVA_INT, slot(position) + SLOT_LENGTH);
  }

  int byteLength(long position) {
    return segment.get(ValueLayout.JAVA_INT, slot(position) + SLOT_BYTE_LENGTH);
  }

  int statusCode(long position) {
    return segment.get(ValueLayout.JAVA_INT, slot(position) + SLOT_STATUS);
  }

  private long slot(long position) {
    return RECEIVE_SLOTS_OFFSET + (position % depth) * SLOT_BYTES;
  }
}
