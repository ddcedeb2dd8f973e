package io.rubinbft.net.verbs.provider;

import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A server and a client verbs transport on one loopback fabric, the client's link connecting to the
 * server's listener; neither side has polled yet, so the test drives every event itself.
 */
final class LoopbackTransports implements AutoCloseable {

  static final LinkSizes SIZES = new LinkSizes(4, 4, 1024);

  final VerbsTransport server;
  final VerbsTransport client;
  final Link outgoing;

  LoopbackTransports(LoopbackVerbsFabric fabric) throws IOException {
    this.server = VerbsTransport.open(new LoopbackVerbsDevice(fabric), 64, 256);
    this.client = VerbsTransport.open(new LoopbackVerbsDevice(fabric), 64, 256);
    LinkListener listener =
        server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SIZES);
    this.outgoing = client.connect(listener.localAddress(), SIZES);
  }

  @Override
  public void close() {
    client.close();
    server.close();
  }
}
