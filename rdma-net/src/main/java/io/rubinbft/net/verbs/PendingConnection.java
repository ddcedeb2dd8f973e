package io.rubinbft.net.verbs;

/**
 * A connection on its way: an outgoing one from {@link VerbsDevice#connect}, or an incoming request
 * from a {@link ConnectionEventHandler#connectRequested} event that is then accepted or rejected.
 * Its queue pair exists from the start, so receives can be posted before the peer can send.
 */
public interface PendingConnection {

  /** The queue pair this connection will use once established. */
  QueuePair queuePair();

  /** Accepts an incoming request, answering with {@code privateData}. */
  void accept(byte[] privateData) throws VerbsException;

  /** Rejects an incoming request, or abandons an outgoing one. */
  void reject() throws VerbsException;
}
