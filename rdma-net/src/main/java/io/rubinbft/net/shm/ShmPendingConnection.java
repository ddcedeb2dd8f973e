package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.VerbsException;
import org.jspecify.annotations.Nullable;

/**
 * A connection on its way. Outgoing: the connector's file says REQUESTED until the acceptor
 * answers. Incoming: the acceptor's pair already maps the connector's file and answers in it.
 */
final class ShmPendingConnection implements PendingConnection {

  private final ShmConnections connections;
  private final ShmQueuePair queuePair;
  private final String peerDescription;
  private final @Nullable ListenerFile listener;
  private final boolean incoming;
  private @Nullable String failure;
  private boolean answered;

  private ShmPendingConnection(
      ShmConnections connections,
      ShmQueuePair queuePair,
      String peerDescription,
      @Nullable ListenerFile listener,
      boolean incoming) {
    this.connections = connections;
    this.queuePair = queuePair;
    this.peerDescription = peerDescription;
    this.listener = listener;
    this.incoming = incoming;
  }

  /** An outgoing request to {@code listener}, or one that failed before reaching any listener. */
  static ShmPendingConnection outgoing(
      ShmConnections connections,
      ShmQueuePair pair,
      String target,
      @Nullable ListenerFile listener) {
    return new ShmPendingConnection(connections, pair, target, listener, false);
  }

  static ShmPendingConnection incoming(
      ShmConnections connections, ShmQueuePair pair, String listenerDescription) {
    return new ShmPendingConnection(connections, pair, listenerDescription, null, true);
  }

  @Override
  public ShmQueuePair queuePair() {
    return queuePair;
  }

  /** For outgoing requests: the listener's endpoint while it has not answered, or null. */
  @Nullable ListenerFile listener() {
    return listener;
  }

  String peerDescription() {
    return peerDescription;
  }

  /** Why an outgoing request failed before any listener saw it; null if it did not. */
  @Nullable String failure() {
    return failure;
  }

  void failBeforeSent(String reason) {
    this.failure = reason;
  }

  boolean isAnswered() {
    return answered;
  }

  void markAnswered() {
    answered = true;
  }

  @Override
  public void accept(byte[] privateData) throws VerbsException {
    if (!incoming) {
      throw new VerbsException("cannot accept the outgoing connection to " + peerDescription);
    }
    if (answered) {
      throw new VerbsException("the request at " + peerDescription + " was already answered");
    }
    connections.checkPrivateData(privateData);
    QueuePairFile connector = queuePair.peerFile();
    QueuePairFile own = queuePair.ownFile();
    own.writePrivateData(privateData);
    connector.writePeer(own.owner().deviceKey(), queuePair.number());
    answered = true;
    if (!connector.compareAndSetConnectionState(
        ConnectionState.REQUESTED, ConnectionState.ACCEPTED)) {
      queuePair.close();
      throw new VerbsException(
          "the connector withdrew its request to " + peerDescription + " before it was accepted");
    }
    queuePair.ringPeer();
    queuePair.markConnected();
    connections.established(this, connector.privateData());
  }

  @Override
  public void reject() throws VerbsException {
    if (answered) {
      throw new VerbsException("the request at " + peerDescription + " was already answered");
    }
    answered = true;
    if (incoming) {
      QueuePairFile connector = queuePair.peerFile();
      connector.writeReason("rejected by the listener at " + peerDescription);
      connector.compareAndSetConnectionState(ConnectionState.REQUESTED, ConnectionState.REJECTED);
      queuePair.close(); // rings the connector
      return;
    }
    queuePair
        .ownFile()
        .compareAndSetConnectionState(ConnectionState.REQUESTED, ConnectionState.ABANDONED);
    queuePair.fail(CompletionStatus.FLUSHED, SideState.DISCONNECTED);
  }

  @Override
  public String toString() {
    return (incoming ? "incoming request at " : "connection to ") + peerDescription;
  }
}
