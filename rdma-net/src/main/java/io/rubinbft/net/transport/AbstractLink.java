package io.rubinbft.net.transport;

import java.net.InetSocketAddress;

/**
 * What every transport's link keeps apart from its rings: its sizes, its peer's address and the
 * selector's attachment.
 */
public abstract class AbstractLink implements Link {

  private final LinkSizes sizes;
  private final InetSocketAddress remoteAddress;

  @SuppressWarnings("NullAway.Init") // attached right after creation, before any event
  private Object attachment;

  protected AbstractLink(LinkSizes sizes, InetSocketAddress remoteAddress) {
    this.sizes = sizes;
    this.remoteAddress = remoteAddress;
  }

  @Override
  public final LinkSizes sizes() {
    return sizes;
  }

  @Override
  public final InetSocketAddress remoteAddress() {
    return remoteAddress;
  }

  @Override
  public final void attach(Object value) {
    this.attachment = value;
  }

  @Override
  public final Object attachment() {
    return attachment;
  }
}
