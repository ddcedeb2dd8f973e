package io.rubinbft.net.transport;

/**
 * The fixed sizes of one link's rings, allocated once when the link is made.
 *
 * @param sendSlots frames that may be committed and not yet handed to the wire
 * @param receiveSlots receive slots posted for the peer: its window
 * @param maxFrameBytes the size of every slot, so the largest frame
 */
public record LinkSizes(int sendSlots, int receiveSlots, int maxFrameBytes) {

  /**
   * The largest frame before the peer has authenticated (a HELLO, or a control frame): a transport
   * that allocates its rings only then ({@link Link#authenticated}) needs no more before it.
   */
  public static final int HANDSHAKE_FRAME_BYTES = 8192;

  /** The largest frame before authentication on links of these sizes. */
  public int handshakeFrameBytes() {
    return Math.min(maxFrameBytes, HANDSHAKE_FRAME_BYTES);
  }

  public LinkSizes {
    if (sendSlots < 2 || receiveSlots < 2) {
      throw new IllegalArgumentException(
          "slots are " + sendSlots + " to send and " + receiveSlots + " to receive; need 2 each");
    }
    if (maxFrameBytes < 1024) {
      throw new IllegalArgumentException("frames of " + maxFrameBytes + " bytes are below 1024");
    }
  }
}
