package io.rubinbft.net.disni;

import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.QueuePairSpec;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A listening rdma_cm id with its own event channel, on which its requests and the events of the
 * connections accepted from it arrive.
 */
final class DisniListener implements ConnectionListener {

  private final DisniVerbsDevice device;
  private final RdmaEventChannel channel;
  private final RdmaCmId id;
  private final InetSocketAddress localAddress;
  private final QueuePairSpec spec;
  private boolean closed;

  DisniListener(
      DisniVerbsDevice device,
      RdmaEventChannel channel,
      RdmaCmId id,
      InetSocketAddress localAddress,
      QueuePairSpec spec) {
    this.device = device;
    this.channel = channel;
    this.id = id;
    this.localAddress = localAddress;
    this.spec = spec;
  }

  RdmaEventChannel channel() {
    return channel;
  }

  RdmaCmId id() {
    return id;
  }

  QueuePairSpec spec() {
    return spec;
  }

  @Override
  public InetSocketAddress localAddress() {
    return localAddress;
  }

  /** Stops listening; connections accepted from it keep the channel until they are closed. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    device.forget(this);
    try {
      id.destroyId();
    } catch (IOException e) {
      throw new IllegalStateException("destroying a DiSNI listener failed", e);
    }
  }

  boolean isClosed() {
    return closed;
  }
}
