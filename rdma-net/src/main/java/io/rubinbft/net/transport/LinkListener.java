package io.rubinbft.net.transport;

import java.net.InetSocketAddress;

/** A listening endpoint of a transport. */
public interface LinkListener extends AutoCloseable {

  /** The bound address, with the real port when port 0 was asked for. */
  InetSocketAddress localAddress();

  /** Where the selector keeps its own state for this listener. */
  void attach(Object attachment);

  Object attachment();

  @Override
  void close();
}
