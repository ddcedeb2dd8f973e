package io.rubinbft.net.disni;

import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * One connection: its rdma_cm id, its queue pair and, for an outgoing one, its own event channel
 * (an accepted id reports on its listener's channel). DiSNI has no rdma_reject: rejecting destroys
 * the id, so the peer sees its request fail rather than a reject.
 */
final class DisniConnection implements PendingConnection {

  private final DisniVerbsDevice device;
  private final RdmaCmId id;
  private final @Nullable RdmaEventChannel ownChannel;

  @SuppressWarnings("NullAway.Init") // attached right after creation, before any use
  private DisniQueuePair queuePair;

  private boolean established;
  private boolean destroyed;

  DisniConnection(DisniVerbsDevice device, RdmaCmId id, @Nullable RdmaEventChannel ownChannel) {
    this.device = device;
    this.id = id;
    this.ownChannel = ownChannel;
  }

  void attach(DisniQueuePair pair) {
    this.queuePair = pair;
  }

  RdmaCmId id() {
    return id;
  }

  /** The channel only this connection reports on, or null for an accepted one. */
  @Nullable RdmaEventChannel ownChannel() {
    return ownChannel;
  }

  /** Marks the connection up; false when it already was. */
  boolean markEstablished() {
    boolean first = !established;
    established = true;
    return first;
  }

  boolean isEstablished() {
    return established;
  }

  @Override
  public QueuePair queuePair() {
    return queuePair;
  }

  @Override
  public void accept(byte[] privateData) throws VerbsException {
    DisniVerbsDevice.requireNoPrivateData(privateData);
    try {
      id.accept(device.connectionParameters());
    } catch (IOException e) {
      throw new VerbsException("rdma_accept through DiSNI failed", e);
    }
  }

  @Override
  public void reject() {
    if (queuePair != null) {
      queuePair.close();
    } else {
      destroy();
    }
  }

  void connect(RdmaConnParam parameters) throws VerbsException {
    try {
      id.connect(parameters);
    } catch (IOException e) {
      throw new VerbsException("rdma_connect through DiSNI failed", e);
    }
  }

  void disconnect() throws VerbsException {
    try {
      id.disconnect();
    } catch (IOException e) {
      throw new VerbsException("rdma_disconnect through DiSNI failed", e);
    }
  }

  /** Destroys the queue pair, the id and the own event channel; the device forgets it. */
  void destroy() {
    if (destroyed) {
      return;
    }
    destroyed = true;
    device.forget(this);
    try {
      if (queuePair != null) {
        id.destroyQP();
      }
      id.destroyId();
      if (ownChannel != null) {
        ownChannel.destroyEventChannel();
      }
    } catch (IOException e) {
      throw new IllegalStateException("destroying a DiSNI connection failed", e);
    }
  }
}
