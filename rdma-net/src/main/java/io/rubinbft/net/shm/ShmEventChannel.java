package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.EventChannel;
import io.rubinbft.net.verbs.VerbsException;

/**
 * The shm device's event channel: its poller sleeps on the device's {@link Doorbell}, and peers
 * that deliver, fail, close, request or answer ring it. It refuses to sleep while a send waits for
 * a posted receive (only this process's passes deliver it, so sleeping would strand it), and sleeps
 * no longer than the next liveness probe of its peers, which no one can ring for a dead process.
 */
final class ShmEventChannel implements EventChannel {

  private final ShmVerbsDevice device;
  private final ShmConnections connections;
  private final Doorbell doorbell;

  ShmEventChannel(ShmVerbsDevice device, ShmConnections connections, Doorbell doorbell) {
    this.device = device;
    this.connections = connections;
    this.doorbell = doorbell;
  }

  @Override
  public boolean arm() {
    if (device.hasUndeliveredSends()) {
      return false;
    }
    doorbell.arm();
    return true;
  }

  @Override
  public void disarm() {
    doorbell.disarm();
  }

  @Override
  public void await(long timeoutNanos) throws VerbsException {
    long untilProbe = connections.nanosUntilLivenessCheck();
    if (doorbell.await(Math.min(timeoutNanos, untilProbe))) {
      connections.checkLivenessNow();
    }
  }

  @Override
  public void wakeup() {
    doorbell.wakeup();
  }
}
