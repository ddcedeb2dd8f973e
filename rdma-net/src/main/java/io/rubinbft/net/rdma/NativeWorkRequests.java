package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.WorkRequestList;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * A pre-built, pre-chained native array of {@code ibv_send_wr} or {@code ibv_recv_wr}, each with
 * its own {@code ibv_sge}. A post of the first {@code n} copies their entries into the structs,
 * cuts the chain after entry {@code n - 1} for the call and mends it afterwards, so nothing is
 * allocated per post. wr_id, next, sg_list and num_sge sit at the same offsets in both structs.
 */
final class NativeWorkRequests extends WorkRequestList<FfmRegisteredMemory> {

  private static final long WR_ID = VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "wr_id");
  private static final long NEXT = VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "next");
  private static final long SG_LIST = VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "sg_list");
  private static final long NUM_SGE = VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "num_sge");
  private static final long OPCODE = VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "opcode");
  private static final long SEND_FLAGS =
      VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "send_flags");
  private static final long SGE_BYTES = VerbsLayouts.IBV_SGE.byteSize();
  private static final long SGE_ADDR = VerbsLayouts.offset(VerbsLayouts.IBV_SGE, "addr");
  private static final long SGE_LENGTH = VerbsLayouts.offset(VerbsLayouts.IBV_SGE, "length");
  private static final long SGE_LKEY = VerbsLayouts.offset(VerbsLayouts.IBV_SGE, "lkey");

  private final boolean sends;
  private final long stride;
  private final MemorySegment requests;
  private final MemorySegment scatterGather;

  private NativeWorkRequests(boolean sends, int capacity, int inlineLimit, Arena arena) {
    super(capacity, inlineLimit);
    StructLayout layout = sends ? VerbsLayouts.IBV_SEND_WR : VerbsLayouts.IBV_RECV_WR;
    this.sends = sends;
    this.stride = layout.byteSize();
    this.requests = arena.allocate(layout, capacity);
    this.scatterGather = arena.allocate(VerbsLayouts.IBV_SGE, capacity);
    for (int i = 0; i < capacity; i++) {
      long wr = i * stride;
      requests.set(ADDRESS, wr + SG_LIST, scatterGather.asSlice(i * SGE_BYTES, SGE_BYTES));
      requests.set(JAVA_INT, wr + NUM_SGE, 1);
      if (sends) {
        requests.set(JAVA_INT, wr + OPCODE, VerbsLayouts.IBV_WR_SEND);
      }
      mendChain(i + 1);
    }
  }

  /** Send requests: opcode IBV_WR_SEND; inline only up to the pair's actual inline limit. */
  static NativeWorkRequests forSends(int capacity, int maxInlineBytes, Arena arena) {
    return new NativeWorkRequests(true, capacity, maxInlineBytes, arena);
  }

  static NativeWorkRequests forReceives(int capacity, Arena arena) {
    return new NativeWorkRequests(false, capacity, Integer.MAX_VALUE, arena);
  }

  @Override
  protected FfmRegisteredMemory registered(RegisteredMemory memory) {
    if (!(memory instanceof FfmRegisteredMemory registered)) {
      throw new IllegalArgumentException("memory was not registered by an rdma-core device");
    }
    return registered;
  }

  /**
   * The head of a chain of the first {@code count} entries, copied into their native structs;
   * {@link #mendChain} must follow.
   */
  MemorySegment cutChain(int count) {
    if (count < 1 || count > capacity()) {
      throw new IllegalArgumentException(
          "posting " + count + " work requests from a list of " + capacity());
    }
    for (int index = 0; index < count; index++) {
      fill(index);
    }
    requests.set(ADDRESS, (count - 1) * stride + NEXT, MemorySegment.NULL);
    return requests;
  }

  private void fill(int index) {
    long wr = index * stride;
    requests.set(JAVA_LONG, wr + WR_ID, workRequestId(index));
    if (sends) {
      int flags =
          (signaled(index) ? VerbsLayouts.IBV_SEND_SIGNALED : 0)
              | (inline(index) ? VerbsLayouts.IBV_SEND_INLINE : 0);
      requests.set(JAVA_INT, wr + SEND_FLAGS, flags);
    }
    long sge = index * SGE_BYTES;
    FfmRegisteredMemory memory = memory(index);
    scatterGather.set(JAVA_LONG, sge + SGE_ADDR, memory.address(offset(index)));
    scatterGather.set(JAVA_INT, sge + SGE_LENGTH, length(index));
    scatterGather.set(JAVA_INT, sge + SGE_LKEY, memory.localKey());
  }

  /** Links entry {@code count - 1} to entry {@code count} again (the last entry ends the list). */
  void mendChain(int count) {
    long next = count < capacity() ? requests.address() + count * stride : 0;
    requests.set(JAVA_LONG, (count - 1) * stride + NEXT, next);
  }

  /** The index of the entry at native address {@code address} (a post's bad_wr). */
  long indexOf(long address) {
    return (address - requests.address()) / stride;
  }
}
