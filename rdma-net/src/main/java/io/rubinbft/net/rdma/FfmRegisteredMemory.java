package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Memory registered with {@code ibv_reg_mr} for local write only: the region is used by two-sided
 * sends and receives, so no remote access is granted and its rkey is never read.
 *
 * <p>Closing deregisters the region; the bytes themselves belong to an automatic arena and are
 * freed once nothing refers to them, so a view the layer above still holds (a frame being closed
 * after its transport went down) reads stale bytes instead of failing.
 */
final class FfmRegisteredMemory implements RegisteredMemory {

  private static final long PAGE_BYTES = 4096;
  private static final long LKEY = VerbsLayouts.offset(VerbsLayouts.IBV_MR, "lkey");

  private final FfmVerbsDevice device;
  private final MemorySegment segment;
  private final MemorySegment memoryRegion;
  private final int localKey;
  private boolean closed;

  private FfmRegisteredMemory(
      FfmVerbsDevice device, MemorySegment segment, MemorySegment memoryRegion) {
    this.device = device;
    this.segment = segment;
    this.memoryRegion = memoryRegion.reinterpret(VerbsLayouts.IBV_MR.byteSize());
    this.localKey = this.memoryRegion.get(JAVA_INT, LKEY);
  }

  static FfmRegisteredMemory register(FfmVerbsDevice device, long bytes) throws VerbsException {
    if (bytes < 1) {
      throw new IllegalArgumentException("registered memory of " + bytes + " bytes");
    }
    MemorySegment segment = Arena.ofAuto().allocate(bytes, PAGE_BYTES);
    try {
      MemorySegment mr =
          NativeCalls.callForPointer(
              "ibv_reg_mr of " + bytes + " bytes on " + device.name(),
              device.core().regMr,
              device.protectionDomain(),
              segment,
              bytes,
              VerbsLayouts.IBV_ACCESS_LOCAL_WRITE);
      return new FfmRegisteredMemory(device, segment, mr);
    } catch (VerbsException e) {
      throw new VerbsException(
          e.getMessage()
              + "; registered memory is pinned and counts against RLIMIT_MEMLOCK: raise it (ulimit"
              + " -l, limits.conf memlock, or the container's memlock ulimit)",
          e);
    }
  }

  @Override
  public MemorySegment segment() {
    return segment;
  }

  int localKey() {
    return localKey;
  }

  /** The native address of byte {@code offset} (work request lists check the bounds). */
  long address(long offset) {
    return segment.address() + offset;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    NativeCalls.callReturningErrno("ibv_dereg_mr", device.core().deregMr, memoryRegion);
    device.forget(this);
  }
}
