package io.rubinbft.net;

/** Why an incoming frame was dropped; each is counted per channel and per selector. */
public enum DropReason {
  /** Shorter than a header and tag, or shorter than its length field says. */
  TRUNCATED,
  /** Longer than the agreed frame size: on a stream transport the connection is closed. */
  OVERSIZED,
  /** Unknown version, type or flags, or a non-zero reserved byte. */
  MALFORMED,
  /** The tag does not match under the connection's key: the frame is not authentic. */
  BAD_MAC,
  /** A sequence number already seen: a replay. */
  REPLAYED,
  /** A sequence number ahead of the next expected one. */
  OUT_OF_ORDER,
  /** A valid frame of a type not allowed now (e.g. data before the handshake). */
  UNEXPECTED_TYPE,
  /** A fragment that does not continue the message being received, or exceeds the size limit. */
  BAD_FRAGMENT,
  /** A frame beyond the credit this side granted: the peer ignored flow control. */
  WINDOW_OVERRUN,
  /** A handshake that failed: bad signature, refused certificate, or unusable parameters. */
  HANDSHAKE_REJECTED
}
