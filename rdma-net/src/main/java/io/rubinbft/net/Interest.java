package io.rubinbft.net;

/** What a {@link SelectionKey} can wait for, after java.nio's operations. */
public enum Interest {
  /** A {@link ServerChannel} has an authenticated connection to accept. */
  ACCEPT,
  /** A connecting {@link Channel} is open, or failed (see {@link Channel#state()}). */
  CONNECT,
  /** A {@link Channel} has whole messages to {@link Channel#poll}. */
  RECEIVE,
  /** A {@link Channel} may send a message now: the peer has granted credit. */
  SEND
}
