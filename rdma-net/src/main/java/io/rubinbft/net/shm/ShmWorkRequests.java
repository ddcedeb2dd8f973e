package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.WorkRequests;
import java.util.Objects;

/** A queue pair's reusable work request list: plain arrays filled in place, read at post. */
final class ShmWorkRequests implements WorkRequests {

  private final ShmVerbsDevice device;
  private final int inlineLimit;
  private final long[] workRequestIds;
  private final ShmRegisteredMemory[] memories;
  private final long[] offsets;
  private final int[] lengths;
  private final boolean[] signaled;
  private final boolean[] inline;

  /** A list of {@code capacity} entries; {@code inlineLimit} bounds inline sends. */
  ShmWorkRequests(ShmVerbsDevice device, int capacity, int inlineLimit) {
    this.device = device;
    this.inlineLimit = inlineLimit;
    this.workRequestIds = new long[capacity];
    this.memories = new ShmRegisteredMemory[capacity];
    this.offsets = new long[capacity];
    this.lengths = new int[capacity];
    this.signaled = new boolean[capacity];
    this.inline = new boolean[capacity];
  }

  @Override
  public int capacity() {
    return workRequestIds.length;
  }

  @Override
  public void set(
      int index,
      long workRequestId,
      RegisteredMemory memory,
      long offset,
      int length,
      boolean signaled,
      boolean inline) {
    Objects.checkIndex(index, workRequestIds.length);
    if (!(memory instanceof ShmRegisteredMemory shm) || shm.device() != device) {
      throw new IllegalArgumentException(memory + " is not registered with " + device.name());
    }
    long size = shm.segment().byteSize();
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new IllegalArgumentException(
          "bytes "
              + offset
              + ".."
              + (offset + length)
              + " are outside the "
              + size
              + " registered bytes of "
              + shm);
    }
    if (inline && length > inlineLimit) {
      throw new IllegalArgumentException(
          "inline send of " + length + " bytes exceeds the inline limit of " + inlineLimit);
    }
    workRequestIds[index] = workRequestId;
    memories[index] = shm;
    offsets[index] = offset;
    lengths[index] = length;
    this.signaled[index] = signaled;
    this.inline[index] = inline;
  }

  long workRequestId(int index) {
    return workRequestIds[index];
  }

  ShmRegisteredMemory memory(int index) {
    return memories[index];
  }

  long offset(int index) {
    return offsets[index];
  }

  int length(int index) {
    return lengths[index];
  }

  boolean signaled(int index) {
    return signaled[index];
  }

  boolean inline(int index) {
    return inline[index];
  }
}
