package io.rubinbft.net.security;

/** Which end of a connection this side is; each direction gets its own key. */
public enum Role {
  INITIATOR((byte) 1),
  ACCEPTOR((byte) 2);

  private final byte code;

  Role(byte code) {
    this.code = code;
  }

  byte code() {
    return code;
  }

  Role peer() {
    return this == INITIATOR ? ACCEPTOR : INITIATOR;
  }
}
