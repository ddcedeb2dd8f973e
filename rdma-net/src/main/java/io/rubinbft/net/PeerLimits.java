package io.rubinbft.net;

import io.rubinbft.net.flow.ReceiveWindow;
import io.rubinbft.net.security.HandshakeRejected;
import io.rubinbft.net.security.HelloParameters;

/**
 * The limits a peer's HELLO may announce. A peer is refused at the handshake when its limits would
 * make this side unable to send it anything useful (a largest message of a few bytes, a window
 * below the control reserve) or are absurdly large: such a peer is broken or lying, and refusing it
 * there is the one place where that costs nothing but this link.
 */
final class PeerLimits {

  /** More receive slots than any real ring has: the window counts are ints. */
  static final int MAX_RECEIVE_SLOTS = 1 << 16;

  /** The smallest frame a peer may announce, header and tag included. */
  static final int MIN_FRAME_BYTES = 1024;

  /**
   * The smallest largest-message a peer may announce, unless this side's own limit is smaller:
   * below it a cluster cannot carry its consensus messages.
   */
  static final int MIN_MESSAGE_BYTES = 1024 * 1024;

  private PeerLimits() {}

  /**
   * @throws HandshakeRejected naming the limit that is out of range
   */
  static void check(HelloParameters peer, ChannelConfig local) throws HandshakeRejected {
    if (peer.receiveSlots() < ReceiveWindow.minimumSlots()
        || peer.receiveSlots() > MAX_RECEIVE_SLOTS) {
      throw new HandshakeRejected(
          "peer offers "
              + peer.receiveSlots()
              + " receive slots but must offer between "
              + ReceiveWindow.minimumSlots()
              + " and "
              + MAX_RECEIVE_SLOTS);
    }
    if (peer.maxFrameBytes() < MIN_FRAME_BYTES) {
      throw new HandshakeRejected(
          "peer takes frames of "
              + peer.maxFrameBytes()
              + " bytes but must take at least "
              + MIN_FRAME_BYTES);
    }
    int minMessage = Math.min(local.maxMessageBytes(), MIN_MESSAGE_BYTES);
    if (peer.maxMessageBytes() < minMessage) {
      throw new HandshakeRejected(
          "peer takes messages of "
              + peer.maxMessageBytes()
              + " bytes but must take at least "
              + minMessage);
    }
  }
}
