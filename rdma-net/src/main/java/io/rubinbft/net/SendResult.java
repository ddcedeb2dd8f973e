package io.rubinbft.net;

/** The outcome of {@link Channel#offer} or {@link Channel#tryClaim}. */
public enum SendResult {
  /** Accepted: it will reach the peer unless the connection fails. */
  SENT,
  /** The peer's window or the send ring is full: try again when the key is ready for SEND. */
  BACK_PRESSURED,
  /** The channel is not open (still connecting, or closed). */
  NOT_OPEN
}
