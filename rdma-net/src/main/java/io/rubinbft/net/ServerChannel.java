package io.rubinbft.net;

import java.net.InetSocketAddress;
import java.util.Optional;

/** A listening endpoint: authenticated connections wait here to be accepted. */
public non-sealed interface ServerChannel extends Selectable {

  /** The next authenticated, open connection, if any (ready when the key is ready for ACCEPT). */
  Optional<Channel> accept();

  /** The bound address, with the real port when port 0 was asked for. */
  InetSocketAddress localAddress();
}
