package io.rubinbft.net.verbs;

/**
 * A connected reliable queue pair. Work requests are filled in place in the pair's own pre-built
 * lists and posted as one batch (one doorbell), as the RUBIN paper does.
 */
public interface QueuePair extends AutoCloseable {

  /** A number unique among this device's queue pairs; completions carry it. */
  int number();

  /** The pre-built send work requests, at most {@code sendQueueDepth} of them. */
  WorkRequests sendRequests();

  /** The pre-built receive work requests, at most {@code receiveQueueDepth} of them. */
  WorkRequests receiveRequests();

  /** Posts the first {@code count} entries of {@link #sendRequests()} as one chained batch. */
  void postSend(int count) throws VerbsException;

  /** Posts the first {@code count} entries of {@link #receiveRequests()} as one chained batch. */
  void postReceive(int count) throws VerbsException;

  /** Starts an orderly disconnect; a {@link ConnectionEventHandler#disconnected} event follows. */
  void disconnect() throws VerbsException;

  @Override
  void close();
}
