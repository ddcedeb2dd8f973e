package io.rubinbft.net.shm;

import static io.rubinbft.net.shm.QueuePairFileDescriptor.FLAG_INLINE;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.FLAG_SIGNALED;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SEND_SLOT_FLAGS;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_BYTES;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_LENGTH;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_REGION;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_STATUS;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_WR_ID;

import io.rubinbft.net.verbs.CompletionStatus;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over a side's send queue: posted send descriptors and their inline data. Only the
 * owning process reads and writes it (it is both the poster and the "NIC" that executes them), so
 * its accesses are plain; it lives in the mapped file so that a side's whole state is inspectable.
 */
final class SendRing {

  private final MemorySegment segment;
  private final int depth;
  private final long slotsOffset;
  private final long inlineOffset;
  private final int inlineStride;

  SendRing(MemorySegment segment, int sendDepth, int receiveDepth, int maxInline) {
    this.segment = segment;
    this.depth = sendDepth;
    this.slotsOffset = QueuePairFileDescriptor.sendSlotsOffset(receiveDepth);
    this.inlineOffset = QueuePairFileDescriptor.inlineOffset(sendDepth, receiveDepth);
    this.inlineStride = QueuePairFileDescriptor.inlineStride(maxInline);
  }

  void post(
      long position,
      long workRequestId,
      int regionId,
      long offset,
      int length,
      boolean signaled,
      boolean inline) {
    long slot = slot(position);
    segment.set(ValueLayout.JAVA_LONG, slot + SLOT_WR_ID, workRequestId);
    segment.set(ValueLayout.JAVA_LONG, slot + SLOT_OFFSET, offset);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_REGION, regionId);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_LENGTH, length);
    int flags = (signaled ? FLAG_SIGNALED : 0) | (inline ? FLAG_INLINE : 0);
    segment.set(ValueLayout.JAVA_INT, slot + SEND_SLOT_FLAGS, flags);
    segment.set(ValueLayout.JAVA_INT, slot + SLOT_STATUS, 0);
  }

  MemorySegment segment() {
    return segment;
  }

  /** Where in {@link #segment()} an inline send's bytes are kept from post until delivery. */
  long inlineDataOffset(long position) {
    return inlineOffset + (position % depth) * inlineStride;
  }

  long workRequestId(long position) {
    return segment.get(ValueLayout.JAVA_LONG, slot(position) + SLOT_WR_ID);
  }

  long offset(long position) {
    return segment.get(ValueLayout.JAVA_LONG, slot(position) + SLOT_OFFSET);
  }

  int length(long position) {
    return segment.get(ValueLayout.JAVA_INT, slot(position) + SLOT_LENGTH);
  }

  boolean signaled(long position) {
    return (segment.get(ValueLayout.JAVA_INT, slot(position) + SEND_SLOT_FLAGS) & FLAG_SIGNALED)
        != 0;
  }

  boolean inline(long position) {
    return (segment.get(ValueLayout.JAVA_INT, slot(position) + SEND_SLOT_FLAGS) & FLAG_INLINE) != 0;
  }

  CompletionStatus status(long position) {
    return QueuePairFileDescriptor.status(
        segment.get(ValueLayout.JAVA_INT, slot(position) + SLOT_STATUS));
  }

  void complete(long position, CompletionStatus status) {
    segment.set(
        ValueLayout.JAVA_INT,
        slot(position) + SLOT_STATUS,
        QueuePairFileDescriptor.statusCode(status));
  }

  private long slot(long position) {
    return slotsOffset + (position % depth) * SLOT_BYTES;
  }
}
