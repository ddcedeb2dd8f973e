package io.rubinbft.net.transport;

/**
 * What every transport's listener keeps apart from its endpoint: the sizes of the links it accepts
 * and the selector's attachment.
 */
public abstract class AbstractLinkListener implements LinkListener {

  private final LinkSizes sizes;

  @SuppressWarnings("NullAway.Init") // attached right after creation, before any event
  private Object attachment;

  protected AbstractLinkListener(LinkSizes sizes) {
    this.sizes = sizes;
  }

  /** The sizes of every link this listener accepts. */
  public final LinkSizes sizes() {
    return sizes;
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
