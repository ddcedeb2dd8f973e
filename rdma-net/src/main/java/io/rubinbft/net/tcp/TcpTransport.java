package io.rubinbft.net.tcp;

import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The default transport where there is no RDMA: non-blocking java.nio sockets under one java.nio
 * selector. Message semantics and credit flow control are the selector's, as on every transport;
 * TCP's own flow control sits underneath and is never relied on.
 */
public final class TcpTransport implements Transport {

  /** Connections accepted per listener in one poll, so one busy listener cannot starve the rest. */
  private static final int ACCEPTS_PER_POLL = 16;

  private final Selector nioSelector;
  private final ArrayDeque<TcpLink> connectedAtOnce = new ArrayDeque<>();
  private final Consumer<SelectionKey> onKey = this::onKey;

  @SuppressWarnings("NullAway.Init") // set by open(), before any poll
  private LinkEvents events;

  private int reported;

  private TcpTransport(Selector nioSelector) {
    this.nioSelector = nioSelector;
  }

  public static TcpTransport open() throws IOException {
    return new TcpTransport(Selector.open());
  }

  @Override
  public String name() {
    return "tcp";
  }

  @Override
  public LinkListener listen(InetSocketAddress address, LinkSizes sizes) throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open();
    try {
      server.configureBlocking(false);
      server.bind(address);
      TcpListener listener = new TcpListener(server, sizes);
      server.register(nioSelector, SelectionKey.OP_ACCEPT, listener);
      return listener;
    } catch (IOException e) {
      server.close();
      throw e;
    }
  }

  @Override
  public Link connect(InetSocketAddress address, LinkSizes sizes) throws IOException {
    SocketChannel socket = SocketChannel.open();
    TcpLink link = null;
    try {
      configure(socket);
      link = new TcpLink(socket, sizes, address);
      boolean connected = socket.connect(address);
      int ops = connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT;
      link.registered(socket.register(nioSelector, ops, link));
      if (connected) {
        connectedAtOnce.add(link);
      }
      return link;
    } catch (IOException e) {
      socket.close();
      if (link != null) {
        link.close(); // its rings' direct memory, now rather than when the collector runs
      }
      throw e;
    }
  }

  @Override
  public int poll(LinkEvents linkEvents, long timeoutNanos) throws IOException {
    this.events = linkEvents;
    reported = 0;
    while (!connectedAtOnce.isEmpty()) {
      linkEvents.established(connectedAtOnce.poll());
      reported++;
    }
    try {
      if (timeoutNanos == WAIT_FOREVER && reported == 0) {
        // No timer at all, as plain NIO's select(): the echo server woke measurably later from a
        // timed epoll_wait (bench/journal/2026-11-21-03-rdma-net-tcp-echo.md).
        nioSelector.select(onKey);
      } else if (timeoutNanos > 0 && reported == 0) {
        nioSelector.select(onKey, Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
      } else {
        nioSelector.selectNow(onKey);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause(); // An accept failed (e.g. out of file descriptors): the caller's to see.
    }
    return reported;
  }

  @Override
  public void wakeup() {
    nioSelector.wakeup();
  }

  private void onKey(SelectionKey key) {
    reported++;
    try {
      if (key.attachment() instanceof TcpListener listener) {
        acceptAll(listener);
        return;
      }
      TcpLink link = (TcpLink) key.attachment();
      if (key.isValid() && key.isConnectable()) {
        finishConnect(key, link);
      }
      if (key.isValid() && key.isReadable()) {
        link.onSocketReadable();
        events.readable(link);
      }
      if (key.isValid() && key.isWritable()) {
        events.writable(link);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void finishConnect(SelectionKey key, TcpLink link) {
    try {
      link.socket().finishConnect();
      key.interestOps(SelectionKey.OP_READ);
      events.established(link);
    } catch (IOException e) {
      events.failed(link, e.getMessage() == null ? e.toString() : e.getMessage());
    }
  }

  private void acceptAll(TcpListener listener) throws IOException {
    for (int i = 0; i < ACCEPTS_PER_POLL; i++) {
      SocketChannel socket = listener.server().accept();
      if (socket == null) {
        return;
      }
      TcpLink link = null;
      try {
        configure(socket);
        link = new TcpLink(socket, listener.sizes(), (InetSocketAddress) socket.getRemoteAddress());
        link.registered(socket.register(nioSelector, SelectionKey.OP_READ, link));
      } catch (IOException e) {
        // The peer reset the connection as soon as it was made: its loss alone.
        socket.close();
        if (link != null) {
          link.close();
        }
        continue;
      }
      events.accepted(listener, link);
    }
  }

  private static void configure(SocketChannel socket) throws IOException {
    socket.configureBlocking(false);
    socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
  }

  @Override
  public void close() {
    if (!nioSelector.isOpen()) {
      return;
    }
    try {
      for (SelectionKey key : nioSelector.keys()) {
        key.channel().close();
      }
      nioSelector.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the tcp transport", e);
    }
  }
}
