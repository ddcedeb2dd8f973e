package io.rubinbft.net.security;

/** A peer's HELLO is unacceptable; the message says why, e.g. "signature does not verify". */
public final class HandshakeRejected extends Exception {

  private static final long serialVersionUID = 1L;

  public HandshakeRejected(String message) {
    super(message);
  }

  public HandshakeRejected(String message, Throwable cause) {
    super(message, cause);
  }
}
