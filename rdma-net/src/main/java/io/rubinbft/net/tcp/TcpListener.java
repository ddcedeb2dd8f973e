package io.rubinbft.net.tcp;

import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;

/** A listening TCP socket; accepted sockets become links of its sizes. */
final class TcpListener implements LinkListener {

  private final ServerSocketChannel server;
  private final LinkSizes sizes;
  private final InetSocketAddress localAddress;

  @SuppressWarnings("NullAway.Init") // attached right after creation, before any event
  private Object attachment;

  TcpListener(ServerSocketChannel server, LinkSizes sizes) throws IOException {
    this.server = server;
    this.sizes = sizes;
    this.localAddress = (InetSocketAddress) server.getLocalAddress();
  }

  ServerSocketChannel server() {
    return server;
  }

  LinkSizes sizes() {
    return sizes;
  }

  @Override
  public InetSocketAddress localAddress() {
    return localAddress;
  }

  @Override
  public void attach(Object value) {
    this.attachment = value;
  }

  @Override
  public Object attachment() {
    return attachment;
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
