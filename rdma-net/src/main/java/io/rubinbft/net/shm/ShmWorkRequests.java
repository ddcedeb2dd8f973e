package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.WorkRequestList;

/** A queue pair's reusable work request list; its post reads the entries into the ring. */
final class ShmWorkRequests extends WorkRequestList<ShmRegisteredMemory> {

  private final ShmVerbsDevice device;

  /** A list of {@code capacity} entries; {@code inlineLimit} bounds inline sends. */
  ShmWorkRequests(ShmVerbsDevice device, int capacity, int inlineLimit) {
    super(capacity, inlineLimit);
    this.device = device;
  }

  @Override
  protected ShmRegisteredMemory registered(RegisteredMemory memory) {
    if (!(memory instanceof ShmRegisteredMemory shm) || shm.device() != device) {
      throw new IllegalArgumentException(memory + " is not registered with " + device.name());
    }
    return shm;
  }
}
