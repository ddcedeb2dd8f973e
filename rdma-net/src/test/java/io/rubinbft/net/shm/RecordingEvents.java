package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Records connection events in order, as text plus the objects a test needs next. */
class RecordingEvents implements ConnectionEventHandler {

  final List<String> events = new ArrayList<>();
  final List<PendingConnection> requests = new ArrayList<>();
  final List<PendingConnection> established = new ArrayList<>();
  final List<QueuePair> disconnected = new ArrayList<>();
  final List<String> failures = new ArrayList<>();

  @Override
  public void connectRequested(
      ConnectionListener listener, PendingConnection request, byte[] privateData) {
    events.add("requested " + new String(privateData, StandardCharsets.UTF_8));
    requests.add(request);
  }

  @Override
  public void established(PendingConnection connection, byte[] privateData) {
    events.add("established " + new String(privateData, StandardCharsets.UTF_8));
    established.add(connection);
  }

  @Override
  public void failed(PendingConnection connection, String reason) {
    events.add("failed");
    failures.add(reason);
  }

  @Override
  public void disconnected(QueuePair queuePair) {
    events.add("disconnected " + queuePair.number());
    disconnected.add(queuePair);
  }
}
