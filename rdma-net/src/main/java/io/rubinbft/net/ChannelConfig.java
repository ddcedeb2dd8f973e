package io.rubinbft.net;

import io.rubinbft.net.flow.SendWindow;
import io.rubinbft.net.transport.LinkSizes;
import java.util.Objects;

/**
 * Sizes and identity shared by every channel of a selector. Memory per channel is fixed by it:
 * {@code (sendSlots + receiveSlots) * slotBytes} of rings, plus up to {@code maxMessageBytes} each
 * for reassembling and for staging a fragmented message, grown on first use and kept.
 *
 * @param identity this replica's certificate and key
 * @param sendSlots frames queued for the wire at most
 * @param receiveSlots receive slots per channel: the window granted to the peer
 * @param slotBytes size of every slot, so the largest frame (header and MAC included)
 * @param maxMessageBytes largest message, fragmented over slots when larger than one
 * @param acceptBacklog incoming connections handshaking or waiting in {@link
 *     ServerChannel#accept()} at most; more are closed at once
 */
public record ChannelConfig(
    Identity identity,
    int sendSlots,
    int receiveSlots,
    int slotBytes,
    int maxMessageBytes,
    int acceptBacklog) {

  /** 16 MiB: a large block. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

  public ChannelConfig {
    Objects.requireNonNull(identity, "identity");
    int minimumSlots = SendWindow.CONTROL_RESERVE + 2;
    if (receiveSlots < minimumSlots || sendSlots < minimumSlots) {
      throw new IllegalArgumentException(
          "slots are "
              + sendSlots
              + " to send and "
              + receiveSlots
              + " to receive but must be at least "
              + minimumSlots);
    }
    if (slotBytes < 8192 || Integer.bitCount(slotBytes) != 1) {
      throw new IllegalArgumentException(
          "slot size is " + slotBytes + " but must be a power of two of at least 8192");
    }
    if (maxMessageBytes < 1) {
      throw new IllegalArgumentException("largest message is " + maxMessageBytes + " bytes");
    }
    if (acceptBacklog < 1) {
      throw new IllegalArgumentException("accept backlog is " + acceptBacklog);
    }
  }

  /** 32 slots of 64 KiB each way (4 MiB of rings per channel), 16 MiB messages. */
  public static ChannelConfig defaults(Identity identity) {
    return new ChannelConfig(identity, 32, 32, 64 * 1024, DEFAULT_MAX_MESSAGE_BYTES, 64);
  }

  LinkSizes linkSizes() {
    return new LinkSizes(sendSlots, receiveSlots, slotBytes);
  }
}
