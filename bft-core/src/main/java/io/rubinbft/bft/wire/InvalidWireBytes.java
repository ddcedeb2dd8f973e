package io.rubinbft.bft.wire;

/**
 * Unwinds a decode from any depth to the codec's entry point, which turns it into a {@link
 * Decoded.Invalid}; it never leaves this package. No stack trace: peers can make us build many.
 */
final class InvalidWireBytes extends RuntimeException {

  InvalidWireBytes(String reason) {
    super(reason, null, false, false);
  }
}
