package io.rubinbft.net;

import org.agrona.DirectBuffer;

/** Takes a received message from {@link Channel#poll}. */
@FunctionalInterface
public interface MessageHandler {

  /**
   * One whole message, read-only and in place: the bytes are valid only until this returns, after
   * which the slot (or reassembly buffer) is reused. Copy what must outlive the call.
   */
  void onMessage(DirectBuffer buffer, int offset, int length);
}
