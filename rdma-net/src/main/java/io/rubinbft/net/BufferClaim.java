package io.rubinbft.net;

import org.agrona.MutableDirectBuffer;
import org.jspecify.annotations.Nullable;

/**
 * Space claimed in a channel's send ring by {@link Channel#tryClaim}; reusable. Write the message
 * into {@link #buffer()} from {@link #offset()} for {@link #length()} bytes, then commit or abort.
 */
public final class BufferClaim {

  private @Nullable MutableDirectBuffer buffer;
  private int offset;
  private int length;
  private @Nullable ClaimOwner owner;

  /** The channel that claimed, told of commit or abort. */
  interface ClaimOwner {
    void commitClaim(int length);

    void abortClaim();
  }

  void wrap(MutableDirectBuffer buffer, int offset, int length, ClaimOwner owner) {
    this.buffer = buffer;
    this.offset = offset;
    this.length = length;
    this.owner = owner;
  }

  public MutableDirectBuffer buffer() {
    if (buffer == null) {
      throw new IllegalStateException("this claim was already committed or aborted");
    }
    return buffer;
  }

  public int offset() {
    return offset;
  }

  public int length() {
    return length;
  }

  /** Sends the written message. */
  public void commit() {
    release().commitClaim(length);
  }

  /** Gives the space back; nothing is sent. */
  public void abort() {
    release().abortClaim();
  }

  private ClaimOwner release() {
    if (owner == null) {
      throw new IllegalStateException("this claim was already committed or aborted");
    }
    ClaimOwner claimed = owner;
    owner = null;
    buffer = null;
    return claimed;
  }
}
