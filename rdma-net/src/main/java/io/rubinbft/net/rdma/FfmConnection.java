package io.rubinbft.net.rdma;

import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A connection on its way (and, once established, the record of its queue pair's cm id). */
final class FfmConnection implements PendingConnection {

  private final FfmVerbsDevice device;
  private final FfmQueuePair queuePair;
  private final String peer;
  private final boolean incoming;
  private final byte[] requestPrivateData;
  private boolean established;

  FfmConnection(
      FfmVerbsDevice device,
      FfmQueuePair queuePair,
      String peer,
      boolean incoming,
      byte[] requestPrivateData) {
    this.device = device;
    this.queuePair = queuePair;
    this.peer = peer;
    this.incoming = incoming;
    this.requestPrivateData = requestPrivateData.clone();
  }

  @Override
  public QueuePair queuePair() {
    return queuePair;
  }

  FfmQueuePair ffmQueuePair() {
    return queuePair;
  }

  String peer() {
    return peer;
  }

  boolean incoming() {
    return incoming;
  }

  /** For an incoming connection, what the peer sent with its request. */
  byte[] requestPrivateData() {
    return requestPrivateData.clone();
  }

  boolean established() {
    return established;
  }

  void markEstablished() {
    established = true;
  }

  @Override
  public void accept(byte[] privateData) throws VerbsException {
    if (!incoming) {
      throw new IllegalStateException("accept of an outgoing connection to " + peer);
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment param = device.connectionParameters(privateData, arena);
      NativeCalls.callChecked(
          "rdma_accept of a connection from " + peer,
          device.core().accept,
          queuePair.cmId(),
          param);
    }
  }

  @Override
  public void reject() throws VerbsException {
    try {
      if (incoming) {
        NativeCalls.callChecked(
            "rdma_reject of a connection from " + peer,
            device.core().reject,
            queuePair.cmId(),
            MemorySegment.NULL,
            (byte) 0);
      }
    } finally {
      queuePair.close();
    }
  }
}
