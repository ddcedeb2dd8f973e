package io.rubinbft.net.verbs;

import java.net.InetSocketAddress;
import java.util.Optional;

/** An opened verbs device (an RDMA NIC, Soft-RoCE, or the shared-memory emulation). */
public interface VerbsDevice extends AutoCloseable {

  /** A name for logs and metrics, e.g. {@code rxe0} or {@code shm:/dev/shm/rubin}. */
  String name();

  /** Allocates and registers {@code bytes} of memory for local send and receive use only. */
  RegisteredMemory register(long bytes) throws VerbsException;

  /** Creates a completion queue holding at most {@code capacity} unpolled completions. */
  CompletionQueue createCompletionQueue(int capacity) throws VerbsException;

  /** Starts listening for connections at {@code address}; requests arrive as connection events. */
  ConnectionListener listen(InetSocketAddress address, QueuePairSpec spec) throws VerbsException;

  /**
   * Starts connecting to {@code address} without blocking; the outcome arrives through {@link
   * #pollConnectionEvents}. {@code privateData} (at most {@link #maxPrivateDataBytes()}) travels
   * with the request, as rdma_cm's private data does.
   */
  PendingConnection connect(InetSocketAddress address, QueuePairSpec spec, byte[] privateData)
      throws VerbsException;

  /** The largest private data a connection request or accept may carry. */
  int maxPrivateDataBytes();

  /** Delivers pending connection events to {@code handler} without blocking; returns how many. */
  int pollConnectionEvents(ConnectionEventHandler handler) throws VerbsException;

  /**
   * Where an idle poller of this device can sleep until something happens; empty for a device that
   * can only be polled (its poller backs off and parks instead).
   */
  default Optional<EventChannel> eventChannel() {
    return Optional.empty();
  }

  @Override
  void close();
}
