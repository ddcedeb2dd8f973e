package io.rubinbft.net;

import io.rubinbft.net.transport.LinkListener;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Optional;

/** A server channel: authenticated connections queue here, at most the accept backlog. */
final class Listener implements ServerChannel {

  private final LinkListener linkListener;
  private final PeerAuthenticator authenticator;
  private final int backlog;
  private final ArrayDeque<Connection> acceptable = new ArrayDeque<>();
  private final SelectionKey key = new SelectionKey(this);
  private boolean closed;

  Listener(LinkListener linkListener, PeerAuthenticator authenticator, int backlog) {
    this.linkListener = linkListener;
    this.authenticator = authenticator;
    this.backlog = backlog;
    linkListener.attach(this);
  }

  PeerAuthenticator authenticator() {
    return authenticator;
  }

  /** Queues an authenticated connection; false when the backlog is full (the caller closes it). */
  boolean offer(Connection connection) {
    if (closed || acceptable.size() >= backlog) {
      return false;
    }
    acceptable.add(connection);
    return true;
  }

  boolean hasAcceptable() {
    acceptable.removeIf(connection -> connection.state() == ChannelState.CLOSED);
    return !acceptable.isEmpty();
  }

  boolean isClosed() {
    return closed;
  }

  @Override
  public Optional<Channel> accept() {
    hasAcceptable();
    return Optional.ofNullable(acceptable.poll());
  }

  @Override
  public InetSocketAddress localAddress() {
    return linkListener.localAddress();
  }

  @Override
  public SelectionKey key() {
    return key;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    linkListener.close();
    acceptable.forEach(Connection::close);
    acceptable.clear();
    key.invalidate();
  }
}
