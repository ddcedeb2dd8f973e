package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import java.net.UnknownHostException;

/**
 * Two queue pairs of one device connected through rdma_cm on the guest's address, each end with its
 * own send and receive completion queues and registered memory.
 */
final class ConnectedPair implements AutoCloseable {

  static final int DEPTH = 16;
  static final int MAX_INLINE = 64;
  static final int MEMORY_BYTES = 64 * 1024;

  final FfmVerbsDevice device;
  final RecordedEvents events;
  final End client;
  final End server;
  private final ConnectionListener listener;

  /** One side: its queue pair, completion queues and memory. */
  record End(
      QueuePair queuePair,
      RecordedCompletions sends,
      RecordedCompletions receives,
      RegisteredMemory memory) {}

  private ConnectedPair(
      FfmVerbsDevice device,
      RecordedEvents events,
      ConnectionListener listener,
      End client,
      End server) {
    this.device = device;
    this.events = events;
    this.listener = listener;
    this.client = client;
    this.server = server;
  }

  /** Connects, exchanging {@code request} and {@code reply} as private data. */
  static ConnectedPair connect(FfmVerbsDevice device, byte[] request, byte[] reply)
      throws VerbsException, UnknownHostException {
    Queues serverQueues = new Queues(device);
    Queues clientQueues = new Queues(device);
    ConnectionListener listener = device.listen(SoftRoce.anyPort(), serverQueues.spec());
    RecordedEvents events = new RecordedEvents();
    PendingConnection outgoing =
        device.connect(listener.localAddress(), clientQueues.spec(), request);
    SoftRoce.awaitUntil(
        "the connection request",
        () -> !events.requests.isEmpty(),
        () -> device.pollConnectionEvents(events));
    PendingConnection incoming = events.requests.getFirst().connection();
    assertThat(events.requests.getFirst().privateData()).isEqualTo(request);
    incoming.accept(reply);
    SoftRoce.awaitUntil(
        "both ends established",
        () -> events.established.size() == 2,
        () -> device.pollConnectionEvents(events));
    assertThat(events.establishedWith(outgoing)).isEqualTo(reply);
    assertThat(events.establishedWith(incoming)).isEqualTo(request);
    return new ConnectedPair(
        device,
        events,
        listener,
        clientQueues.end(outgoing.queuePair(), device),
        serverQueues.end(incoming.queuePair(), device));
  }

  /** Polls connection events into {@link #events} until {@code count} disconnects arrived. */
  void awaitDisconnects(int count) throws VerbsException {
    SoftRoce.awaitUntil(
        count + " disconnect events",
        () -> events.disconnected.size() >= count,
        () -> device.pollConnectionEvents(events));
  }

  @Override
  public void close() {
    client.queuePair().close();
    server.queuePair().close();
    listener.close();
  }

  /** A side's completion queues, made before its queue pair. */
  private record Queues(CompletionQueue sends, CompletionQueue receives) {
    Queues(FfmVerbsDevice device) throws VerbsException {
      this(device.createCompletionQueue(DEPTH), device.createCompletionQueue(DEPTH));
    }

    QueuePairSpec spec() {
      return new QueuePairSpec(DEPTH, DEPTH, MAX_INLINE, sends, receives);
    }

    End end(QueuePair queuePair, FfmVerbsDevice device) throws VerbsException {
      return new End(
          queuePair,
          new RecordedCompletions(sends),
          new RecordedCompletions(receives),
          device.register(MEMORY_BYTES));
    }
  }
}
