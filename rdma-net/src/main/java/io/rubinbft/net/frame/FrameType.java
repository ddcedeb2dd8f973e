package io.rubinbft.net.frame;

import java.util.Optional;

/** What a frame carries. The byte codes are wire values, fixed forever. */
public enum FrameType {
  /** Handshake: identity, ephemeral key and window sizes; the only frame in the clear. */
  HELLO((byte) 1),
  /** A message or one fragment of it. */
  DATA((byte) 2),
  /**
   * Only the piggybacked credit (and the BLOCKED flag): sent when a window would otherwise starve.
   */
  CREDIT((byte) 3),
  /** An orderly close: the peer sends nothing after it. */
  CLOSE((byte) 4),
  /** Handshake, second frame: the sender's signature over both HELLOs (from version 3). */
  AUTH((byte) 5);

  private static final FrameType[] BY_CODE = {null, HELLO, DATA, CREDIT, CLOSE, AUTH};

  private final byte code;

  FrameType(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  /** The type with this wire code, or empty for a code no peer of this version sends. */
  public static Optional<FrameType> fromCode(byte code) {
    return code > 0 && code < BY_CODE.length ? Optional.of(BY_CODE[code]) : Optional.empty();
  }
}
