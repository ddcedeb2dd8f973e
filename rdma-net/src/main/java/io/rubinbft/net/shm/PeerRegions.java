package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.agrona.collections.Int2ObjectHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The peer's registered regions this side's sends write into, mapped on first use and kept for the
 * queue pair's life: the first send into a region pays the mmap, every later one is a memory copy.
 */
final class PeerRegions {

  /** Most distinct peer regions one queue pair maps; a peer naming more is treated as faulty. */
  static final int MAX_REGIONS = 4096;

  private final DeviceDirectory directory;
  private final long peerDeviceKey;
  private final Arena arena;
  private final Int2ObjectHashMap<MemorySegment> mapped = new Int2ObjectHashMap<>();

  PeerRegions(DeviceDirectory directory, long peerDeviceKey, Arena arena) {
    this.directory = directory;
    this.peerDeviceKey = peerDeviceKey;
    this.arena = arena;
  }

  /** The peer's region {@code regionId}, or null when the peer has no such region. */
  @Nullable MemorySegment region(int regionId) {
    MemorySegment region = mapped.get(regionId);
    if (region == null) {
      if (mapped.size() >= MAX_REGIONS) {
        return null;
      }
      try {
        region = directory.mapExisting(directory.region(peerDeviceKey, regionId), arena);
      } catch (VerbsException e) {
        return null;
      }
      mapped.put(regionId, region);
    }
    return region;
  }
}
