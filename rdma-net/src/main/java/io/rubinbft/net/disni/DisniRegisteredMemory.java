package io.rubinbft.net.disni;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.SVCRegMr;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Page-aligned memory from an arena, registered through DiSNI for local access only (no remote key
 * is ever read or sent).
 */
final class DisniRegisteredMemory implements RegisteredMemory {

  private static final int PAGE = 4096;

  private final Arena arena;
  private final MemorySegment segment;
  private final IbvMr region;
  private boolean closed;

  private DisniRegisteredMemory(Arena arena, MemorySegment segment, IbvMr region) {
    this.arena = arena;
    this.segment = segment;
    this.region = region;
  }

  static DisniRegisteredMemory register(IbvPd pd, long bytes) throws VerbsException {
    if (bytes < 1 || bytes > Integer.MAX_VALUE) {
      throw new VerbsException("DiSNI registers 1 to 2^31-1 bytes at once, not " + bytes);
    }
    // Owned by the object built on it, whose close() closes it (and closed here on failure).
    @SuppressWarnings("MustBeClosedChecker")
    Arena arena = Arena.ofShared();
    MemorySegment segment = arena.allocate(bytes, PAGE);
    try {
      SVCRegMr call = pd.regMr(segment.address(), (int) bytes, IbvMr.IBV_ACCESS_LOCAL_WRITE);
      IbvMr region = call.execute().getMr();
      call.free();
      return new DisniRegisteredMemory(arena, segment, region);
    } catch (IOException e) {
      arena.close();
      throw new VerbsException(
          "ibv_reg_mr of "
              + bytes
              + " bytes through DiSNI failed (is the memlock limit high enough?)",
          e);
    }
  }

  @Override
  public MemorySegment segment() {
    return segment;
  }

  /** {@code memory} as a DiSNI region; work request lists accept no other. */
  static DisniRegisteredMemory of(RegisteredMemory memory) {
    if (!(memory instanceof DisniRegisteredMemory region)) {
      throw new IllegalArgumentException("not memory registered by a DiSNI device: " + memory);
    }
    return region;
  }

  long address(long offset) {
    return segment.address() + offset;
  }

  int localKey() {
    return region.getLkey();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      region.deregMr().execute().free();
    } catch (IOException e) {
      throw new IllegalStateException("ibv_dereg_mr through DiSNI failed", e);
    } finally {
      arena.close();
    }
  }
}
