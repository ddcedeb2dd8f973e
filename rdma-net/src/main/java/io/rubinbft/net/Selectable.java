package io.rubinbft.net;

/** Something a {@link Selector} watches: a {@link Channel} or a {@link ServerChannel}. */
public sealed interface Selectable extends AutoCloseable permits Channel, ServerChannel {

  /** Its key in the selector that made it. */
  SelectionKey key();

  @Override
  void close();
}
