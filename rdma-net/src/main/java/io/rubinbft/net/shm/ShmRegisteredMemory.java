package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.RegisteredMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A region of a file in the device's directory, mapped read-write. A peer's sender maps the same
 * file by name ({@code dev-KEY/mr-ID}) to copy messages straight into posted receive buffers.
 */
final class ShmRegisteredMemory implements RegisteredMemory {

  private final ShmVerbsDevice device;
  private final int regionId;
  private final MemorySegment segment;
  private final Arena arena;
  private final Path path;

  ShmRegisteredMemory(
      ShmVerbsDevice device, int regionId, MemorySegment segment, Arena arena, Path path) {
    this.device = device;
    this.regionId = regionId;
    this.segment = segment;
    this.arena = arena;
    this.path = path;
  }

  int regionId() {
    return regionId;
  }

  ShmVerbsDevice device() {
    return device;
  }

  @Override
  public MemorySegment segment() {
    return segment;
  }

  @Override
  public void close() {
    if (arena.scope().isAlive()) {
      arena.close();
      DeviceDirectory.deleteQuietly(path);
      device.forget(this);
    }
  }

  @Override
  public String toString() {
    return "shm region " + regionId + " (" + segment.byteSize() + " bytes at " + path + ")";
  }
}
