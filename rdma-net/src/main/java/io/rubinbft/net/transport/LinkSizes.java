package io.rubinbft.net.transport;

/**
 * The fixed sizes of one link's rings, allocated once when the link is made.
 *
 * @param sendSlots frames that may be committed and not yet handed to the wire
 * @param receiveSlots receive slots posted for the peer: its window
 * @param maxFrameBytes the size of every slot, so the largest frame
 */
public record LinkSizes(int sendSlots, int receiveSlots, int maxFrameBytes) {

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
