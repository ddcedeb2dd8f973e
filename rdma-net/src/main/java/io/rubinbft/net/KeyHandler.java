package io.rubinbft.net;

/** Called by {@link Selector#select} for each key that is ready for one of its interests. */
@FunctionalInterface
public interface KeyHandler {

  void onReady(SelectionKey key);
}
