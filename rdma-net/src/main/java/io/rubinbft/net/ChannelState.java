package io.rubinbft.net;

/** Where a {@link Channel} is in its life. */
public enum ChannelState {
  /** The transport is connecting. */
  CONNECTING,
  /** Connected; identities and keys are being exchanged. */
  HANDSHAKING,
  /** Authenticated both ways: messages flow. */
  OPEN,
  /** Closed by either side or failed; {@link Channel#closeReason()} says why. */
  CLOSED
}
