package io.rubinbft.net.tcp;

import io.rubinbft.net.transport.AbstractLinkListener;
import io.rubinbft.net.transport.LinkSizes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;

/** A listening TCP socket; accepted sockets become links of its sizes. */
final class TcpListener extends AbstractLinkListener {

  private final ServerSocketChannel server;
  private final InetSocketAddress localAddress;

  TcpListener(ServerSocketChannel server, LinkSizes sizes) throws IOException {
    super(sizes);
    this.server = server;
    this.localAddress = (InetSocketAddress) server.getLocalAddress();
  }

  ServerSocketChannel server() {
    return server;
  }

  @Override
  public InetSocketAddress localAddress() {
    return localAddress;
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the listener at " + localAddress, e);
    }
  }
}
