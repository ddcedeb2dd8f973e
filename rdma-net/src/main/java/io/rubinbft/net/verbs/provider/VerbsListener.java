package io.rubinbft.net.verbs.provider;

import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.verbs.ConnectionListener;
import java.net.InetSocketAddress;

/** A verbs connection listener; accepted queue pairs become links of its sizes. */
final class VerbsListener implements LinkListener {

  private final ConnectionListener listener;
  private final LinkSizes sizes;

  @SuppressWarnings("NullAway.Init") // attached right after creation, before any event
  private Object attachment;

  VerbsListener(ConnectionListener listener, LinkSizes sizes) {
    this.listener = listener;
    this.sizes = sizes;
  }

  LinkSizes sizes() {
    return sizes;
  }

  @Override
  public InetSocketAddress localAddress() {
    return listener.localAddress();
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
    listener.close();
  }
}
