package io.rubinbft.net.verbs;

/** Receives connection events from {@link VerbsDevice#pollConnectionEvents}. */
public interface ConnectionEventHandler {

  /** A peer asks to connect to {@code listener}; answer with accept or reject. */
  void connectRequested(ConnectionListener listener, PendingConnection request, byte[] privateData);

  /** A connection is up; {@code privateData} is what the other side sent with connect/accept. */
  void established(PendingConnection connection, byte[] privateData);

  /** An outgoing connection was refused, or could not be made; {@code reason} says why. */
  void failed(PendingConnection connection, String reason);

  /** An established connection's peer disconnected, or the pair failed. */
  void disconnected(QueuePair queuePair);
}
