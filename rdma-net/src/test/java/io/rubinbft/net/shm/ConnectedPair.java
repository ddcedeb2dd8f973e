package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.VerbsException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Two devices under one directory with one established queue pair between them. */
final class ConnectedPair implements AutoCloseable {

  static final long MEMORY_BYTES = 1 << 20;

  final Endpoint client;
  final Endpoint server;
  final ConnectionListener listener;

  private ConnectedPair(Endpoint client, Endpoint server, ConnectionListener listener) {
    this.client = client;
    this.server = server;
    this.listener = listener;
  }

  static ConnectedPair open(ShmOptions options, int depth, int maxInline) throws VerbsException {
    Endpoint server =
        new Endpoint(ShmVerbsDevice.open(options), depth, depth, maxInline, MEMORY_BYTES);
    Endpoint client =
        new Endpoint(ShmVerbsDevice.open(options), depth, depth, maxInline, MEMORY_BYTES);
    ConnectionListener listener =
        server.device.listen(new InetSocketAddress("127.0.0.1", 0), server.spec);
    PendingConnection outgoing =
        client.device.connect(
            listener.localAddress(), client.spec, "hello".getBytes(StandardCharsets.UTF_8));
    client.pair = outgoing.queuePair();
    server.device.pollConnectionEvents(server.events);
    assertThat(server.events.requests).hasSize(1);
    PendingConnection incoming = server.events.requests.getFirst();
    server.pair = incoming.queuePair();
    incoming.accept("welcome".getBytes(StandardCharsets.UTF_8));
    client.device.pollConnectionEvents(client.events);
    server.device.pollConnectionEvents(server.events);
    assertThat(client.events.events).containsExactly("established welcome");
    assertThat(server.events.events).containsExactly("requested hello", "established hello");
    return new ConnectedPair(client, server, listener);
  }

  static ConnectedPair open(Path root, int depth) throws VerbsException {
    return open(ShmOptions.defaults(root), depth, 64);
  }

  /** Polls both devices' connection events once. */
  void pollConnectionEvents() throws VerbsException {
    client.device.pollConnectionEvents(client.events);
    server.device.pollConnectionEvents(server.events);
  }

  @Override
  public void close() {
    client.device.close();
    server.device.close();
  }
}
