package io.rubinbft.net.verbs;

import java.lang.foreign.MemorySegment;

/**
 * Memory registered with a device, allocated once and reused for the connection's life. Only
 * two-sided operations use it: no remote key ever leaves the process.
 */
public interface RegisteredMemory extends AutoCloseable {

  /** The registered bytes; the ring and frame flyweights read and write them in place. */
  MemorySegment segment();

  @Override
  void close();
}
