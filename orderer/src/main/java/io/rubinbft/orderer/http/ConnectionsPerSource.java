package io.rubinbft.orderer.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.util.IO;
import org.jspecify.annotations.Nullable;

/**
 * Caps a Jetty connector's connections per source address: a connection beyond the cap is closed as
 * it is accepted. With the connector's cap in total, it keeps one address from taking every
 * connection of the port (its own connections wait instead of everyone's).
 */
final class ConnectionsPerSource implements SelectorManager.AcceptListener {

  private final int maxPerSource;
  private final IdentityHashMap<SelectableChannel, InetAddress> sourceOf = new IdentityHashMap<>();
  private final Map<InetAddress, Integer> open = new HashMap<>();

  ConnectionsPerSource(int maxPerSource) {
    this.maxPerSource = maxPerSource;
  }

  @Override
  public synchronized void onAccepting(SelectableChannel channel) {
    InetAddress source = source(channel);
    if (source == null) {
      return;
    }
    int count = open.merge(source, 1, Integer::sum);
    sourceOf.put(channel, source);
    if (count > maxPerSource) {
      IO.close(channel);
    }
  }

  @Override
  public synchronized void onAcceptFailed(SelectableChannel channel, Throwable cause) {
    forget(channel);
  }

  @Override
  public synchronized void onClosed(SelectableChannel channel) {
    forget(channel);
  }

  /** Connections now open from {@code source}. */
  synchronized int openFrom(InetAddress source) {
    return open.getOrDefault(source, 0);
  }

  private void forget(SelectableChannel channel) {
    InetAddress source = sourceOf.remove(channel);
    if (source != null) {
      open.computeIfPresent(source, (address, count) -> count > 1 ? count - 1 : null);
    }
  }

  private static @Nullable InetAddress source(SelectableChannel channel) {
    try {
      return channel instanceof SocketChannel socket
              && socket.getRemoteAddress() instanceof InetSocketAddress remote
          ? remote.getAddress()
          : null;
    } catch (IOException e) {
      return null; // Reset as it was accepted: Jetty fails the accept itself.
    }
  }
}
