package io.rubinbft.net;

import io.rubinbft.net.flow.SendWindow;
import io.rubinbft.net.transport.LinkSizes;
import java.util.Objects;

/**
 * Sizes and identity shared by every channel of a selector. Memory per channel is fixed by it:
 * {@code (sendSlots + receiveSlots) * slotBytes} of rings, plus up to {@code maxMessageBytes} each
 * for reassembling and for staging a fragmented message, grown on first use and kept. On tcp the
 * rings are allocated only once the peer has authenticated; before that a connection holds a few
 * handshake-sized buffers ({@link io.rubinbft.net.transport.LinkSizes#HANDSHAKE_FRAME_BYTES}).
 *
 * @param identity this replica's certificate and key
 * @param sendSlots frames queued for the wire at most
 * @param receiveSlots receive slots per channel: the window granted to the peer
 * @param slotBytes size of every slot, so the largest frame (header and tag included)
 * @param maxMessageBytes largest message, fragmented over slots when larger than one
 * @param acceptBacklog incoming connections not yet authenticated at most; a new one beyond it
 *     closes the oldest of them
 * @param acceptBacklogPerSource incoming connections not yet authenticated from one address at
 *     most; a new one beyond it closes that address's oldest
 * @param handshakeTimeoutMillis how long a connection may take from its start (the TCP connect
 *     included) until it is authenticated both ways; then it is closed
 */
public record ChannelConfig(
    Identity identity,
    int sendSlots,
    int receiveSlots,
    int slotBytes,
    int maxMessageBytes,
    int acceptBacklog,
    int acceptBacklogPerSource,
    long handshakeTimeoutMillis) {

  /** The default handshake deadline: a HELLO each way and an AUTH each way. */
  public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 5_000;

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
    if (acceptBacklogPerSource < 1 || acceptBacklogPerSource > acceptBacklog) {
      throw new IllegalArgumentException(
          "accept backlog per source is "
              + acceptBacklogPerSource
              + " but must be between 1 and the accept backlog, "
              + acceptBacklog);
    }
    if (handshakeTimeoutMillis < 1) {
      throw new IllegalArgumentException("handshake timeout is " + handshakeTimeoutMillis + " ms");
    }
  }

  /**
   * A config with the default handshake deadline, and a quarter of the accept backlog (at least
   * one) per source address.
   */
  public ChannelConfig(
      Identity identity,
      int sendSlots,
      int receiveSlots,
      int slotBytes,
      int maxMessageBytes,
      int acceptBacklog) {
    this(
        identity,
        sendSlots,
        receiveSlots,
        slotBytes,
        maxMessageBytes,
        acceptBacklog,
        Math.max(1, acceptBacklog / 4),
        DEFAULT_HANDSHAKE_TIMEOUT_MILLIS);
  }

  /** This config with another handshake deadline. */
  public ChannelConfig withHandshakeTimeoutMillis(long millis) {
    return new ChannelConfig(
        identity,
        sendSlots,
        receiveSlots,
        slotBytes,
        maxMessageBytes,
        acceptBacklog,
        acceptBacklogPerSource,
        millis);
  }

  /** 32 slots of 64 KiB each way (4 MiB of rings per channel), 16 MiB messages. */
  public static ChannelConfig defaults(Identity identity) {
    return new ChannelConfig(identity, 32, 32, 64 * 1024, DEFAULT_MAX_MESSAGE_BYTES, 64);
  }

  LinkSizes linkSizes() {
    return new LinkSizes(sendSlots, receiveSlots, slotBytes);
  }
}
