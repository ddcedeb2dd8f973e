package io.rubinbft.net.verbs;

import java.net.InetSocketAddress;

/** A listening endpoint; connection requests for it arrive as connection events. */
public interface ConnectionListener extends AutoCloseable {

  /** The bound address (with the real port when 0 was asked for). */
  InetSocketAddress localAddress();

  @Override
  void close();
}
