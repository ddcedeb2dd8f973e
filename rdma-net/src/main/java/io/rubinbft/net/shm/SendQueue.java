package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A side's posted sends, private to the sending process: it both posts and executes them, so no
 * other process needs them, and a faulty peer cannot rewrite them. Inline sends keep a copy of
 * their bytes here from post until delivery. Indexed by {@code position % depth}.
 */
final class SendQueue {

  /** Largest inline send a queue pair may declare. */
  static final int MAX_INLINE_BYTES = 1024;

  private final long[] workRequestIds;
  private final MemorySegment[] sources;
  private final long[] offsets;
  private final int[] lengths;
  private final boolean[] signaled;
  private final boolean[] inline;
  private final CompletionStatus[] statuses;
  private final MemorySegment inlineData;
  private final int inlineStride;

  SendQueue(int depth, int maxInline, Arena arena) {
    this.workRequestIds = new long[depth];
    this.sources = new MemorySegment[depth];
    this.offsets = new long[depth];
    this.lengths = new int[depth];
    this.signaled = new boolean[depth];
    this.inline = new boolean[depth];
    this.statuses = new CompletionStatus[depth];
    this.inlineStride = (maxInline + 7) & ~7;
    this.inlineData = arena.allocate(Math.max(1L, (long) depth * inlineStride), 8);
  }

  /** Records send {@code position}; an inline send's bytes are copied now. */
  void post(
      long position,
      long workRequestId,
      MemorySegment memory,
      long offset,
      int length,
      boolean signaled,
      boolean inline) {
    int slot = slot(position);
    workRequestIds[slot] = workRequestId;
    lengths[slot] = length;
    this.signaled[slot] = signaled;
    this.inline[slot] = inline;
    statuses[slot] = null;
    if (inline) {
      long inlineOffset = (long) slot * inlineStride;
      MemorySegment.copy(memory, offset, inlineData, inlineOffset, length);
      sources[slot] = inlineData;
      offsets[slot] = inlineOffset;
    } else {
      sources[slot] = memory;
      offsets[slot] = offset;
    }
  }

  /** Where the bytes of send {@code position} are read from at delivery. */
  MemorySegment source(long position) {
    return sources[slot(position)];
  }

  long sourceOffset(long position) {
    return offsets[slot(position)];
  }

  long workRequestId(long position) {
    return workRequestIds[slot(position)];
  }

  int length(long position) {
    return lengths[slot(position)];
  }

  boolean signaled(long position) {
    return signaled[slot(position)];
  }

  CompletionStatus status(long position) {
    return statuses[slot(position)];
  }

  void complete(long position, CompletionStatus status) {
    statuses[slot(position)] = status;
  }

  private int slot(long position) {
    return (int) (position % workRequestIds.length);
  }
}
