package io.rubinbft.net.memory;

import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.jspecify.annotations.Nullable;

/**
 * One direct buffer, freed when its owner {@link #close closes} it rather than when the collector
 * happens to run its cleaner: on a quiet heap that may be long after, and until then every closed
 * link and every large message held its direct memory, so a peer reconnecting again and again could
 * hold a node's direct memory at its ceiling.
 *
 * <p>Allocated with {@link ByteBuffer#allocateDirect}, not from a {@code java.lang.foreign.Arena}:
 * only the former is counted in the JVM's "direct" buffer pool (the node's memory metric and
 * budget) and bounded by {@code MaxDirectMemorySize}.
 *
 * <p>The owner must not touch the buffer, nor anything wrapping its address, after {@link #close}:
 * it wraps its views empty first (a read through them then fails on its bounds check) and frees
 * only when nothing it has handed out is still in use.
 */
public final class DirectMemory implements AutoCloseable {

  private @Nullable ByteBuffer buffer;
  private final int capacity;

  public DirectMemory(int bytes) {
    this.buffer = ByteBuffer.allocateDirect(bytes);
    this.capacity = bytes;
  }

  /** The buffer; an {@link IllegalStateException} once closed. */
  public ByteBuffer buffer() {
    ByteBuffer current = buffer;
    if (current == null) {
      throw new IllegalStateException("direct memory used after it was freed");
    }
    return current;
  }

  /** Bytes held: the size allocated, or 0 once closed. */
  public int capacity() {
    return buffer == null ? 0 : capacity;
  }

  /** Frees the memory now; closing again does nothing. */
  @Override
  public void close() {
    ByteBuffer current = buffer;
    if (current != null) {
      buffer = null;
      BufferUtil.free(current);
    }
  }
}
