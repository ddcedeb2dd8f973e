package io.rubinbft.net.rdma;

import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.QueuePairSpec;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/** A listening rdma_cm id; every connection it accepts gets a queue pair made to its spec. */
final class FfmConnectionListener implements ConnectionListener {

  private final FfmVerbsDevice device;
  private final MemorySegment cmId;
  private final InetSocketAddress localAddress;
  private final QueuePairSpec spec;
  private boolean closed;

  FfmConnectionListener(
      FfmVerbsDevice device,
      MemorySegment cmId,
      InetSocketAddress localAddress,
      QueuePairSpec spec) {
    this.device = device;
    this.cmId = cmId;
    this.localAddress = localAddress;
    this.spec = spec;
  }

  QueuePairSpec spec() {
    return spec;
  }

  @Override
  public InetSocketAddress localAddress() {
    return localAddress;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    device.destroyConnectionId(cmId);
  }
}
