package io.rubinbft.net.rdma;

import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import java.util.ArrayList;
import java.util.List;

/** Connection events, kept in arrival order. */
final class RecordedEvents implements ConnectionEventHandler {

  record Request(ConnectionListener listener, PendingConnection connection, byte[] privateData) {}

  record Established(PendingConnection connection, byte[] privateData) {}

  record Failed(PendingConnection connection, String reason) {}

  final List<Request> requests = new ArrayList<>();
  final List<Established> established = new ArrayList<>();
  final List<Failed> failures = new ArrayList<>();
  final List<QueuePair> disconnected = new ArrayList<>();

  @Override
  public void connectRequested(
      ConnectionListener listener, PendingConnection request, byte[] privateData) {
    requests.add(new Request(listener, request, privateData));
  }

  @Override
  public void established(PendingConnection connection, byte[] privateData) {
    established.add(new Established(connection, privateData));
  }

  @Override
  public void failed(PendingConnection connection, String reason) {
    failures.add(new Failed(connection, reason));
  }

  @Override
  public void disconnected(QueuePair queuePair) {
    disconnected.add(queuePair);
  }

  /** The established event of {@code connection}'s queue pair, if it came. */
  byte[] establishedWith(PendingConnection connection) {
    return established.stream()
        .filter(e -> e.connection().queuePair() == connection.queuePair())
        .map(Established::privateData)
        .findFirst()
        .orElse(null);
  }
}
