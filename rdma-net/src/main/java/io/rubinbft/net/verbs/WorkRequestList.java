package io.rubinbft.net.verbs;

import java.util.Objects;

/**
 * The one implementation of {@link WorkRequests}: entries kept in plain arrays, filled in place and
 * checked as they are set, so a binding's post only reads them and copies them into its own form
 * (native structs, DiSNI calls, a shared-memory ring). Nothing is allocated per entry or per post.
 *
 * @param <M> the binding's kind of registered memory; a binding accepts only its own
 */
public abstract class WorkRequestList<M extends RegisteredMemory> implements WorkRequests {

  private final int inlineLimit;
  private final long[] workRequestIds;
  private final RegisteredMemory[] memories;
  private final long[] offsets;
  private final int[] lengths;
  private final boolean[] signaled;
  private final boolean[] inline;

  /**
   * A list of {@code capacity} entries; {@code inlineLimit} bounds inline sends (receives pass
   * {@link Integer#MAX_VALUE}: their inline flag is ignored).
   */
  protected WorkRequestList(int capacity, int inlineLimit) {
    this.inlineLimit = inlineLimit;
    this.workRequestIds = new long[capacity];
    this.memories = new RegisteredMemory[capacity];
    this.offsets = new long[capacity];
    this.lengths = new int[capacity];
    this.signaled = new boolean[capacity];
    this.inline = new boolean[capacity];
  }

  /**
   * {@code memory} as this binding's memory, registered with this pair's device.
   *
   * @throws IllegalArgumentException when another device (or binding) registered it
   */
  protected abstract M registered(RegisteredMemory memory);

  @Override
  public final int capacity() {
    return workRequestIds.length;
  }

  @Override
  public final void set(
      int index,
      long workRequestId,
      RegisteredMemory memory,
      long offset,
      int length,
      boolean signaled,
      boolean inline) {
    Objects.checkIndex(index, workRequestIds.length);
    M own = registered(memory);
    long size = own.segment().byteSize();
    if (offset < 0 || length < 0 || offset > size - length) {
      throw new IllegalArgumentException(
          "bytes "
              + offset
              + ".."
              + (offset + length)
              + " are outside the "
              + size
              + " registered bytes of "
              + own);
    }
    if (inline && length > inlineLimit) {
      throw new IllegalArgumentException(
          "inline send of " + length + " bytes exceeds the inline limit of " + inlineLimit);
    }
    workRequestIds[index] = workRequestId;
    memories[index] = own;
    offsets[index] = offset;
    lengths[index] = length;
    this.signaled[index] = signaled;
    this.inline[index] = inline;
  }

  public final long workRequestId(int index) {
    return workRequestIds[index];
  }

  /** Entry {@code index}'s memory, as {@link #registered} accepted it. */
  @SuppressWarnings("unchecked")
  public final M memory(int index) {
    return (M) memories[index];
  }

  public final long offset(int index) {
    return offsets[index];
  }

  public final int length(int index) {
    return lengths[index];
  }

  public final boolean signaled(int index) {
    return signaled[index];
  }

  public final boolean inline(int index) {
    return inline[index];
  }
}
