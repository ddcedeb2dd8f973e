package io.rubinbft.net.verbs.provider;

import io.rubinbft.net.transport.AbstractLinkListener;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.verbs.ConnectionListener;
import java.net.InetSocketAddress;

/** A verbs connection listener; accepted queue pairs become links of its sizes. */
final class VerbsListener extends AbstractLinkListener {

  private final ConnectionListener listener;

  VerbsListener(ConnectionListener listener, LinkSizes sizes) {
    super(sizes);
    this.listener = listener;
  }

  @Override
  public InetSocketAddress localAddress() {
    return listener.localAddress();
  }

  @Override
  public void close() {
    listener.close();
  }
}
