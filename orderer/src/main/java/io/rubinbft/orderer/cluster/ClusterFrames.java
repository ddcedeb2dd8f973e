package io.rubinbft.orderer.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.agrona.DirectBuffer;

/**
 * The cluster message envelope: one node-to-node connection carries every channel's consensus
 * messages, each prefixed with its channel's name.
 *
 * <pre>
 *  0        1        2 ... 2+L
 * +--------+--------+-----------+--------------------------+
 * | length L of the | channel   | bft-core message bytes   |
 * | name (u16, BE)  | (UTF-8)   | (MessageCodec)           |
 * +--------+--------+-----------+--------------------------+
 * </pre>
 */
public final class ClusterFrames {

  /** Fabric channel names are at most 249 characters. */
  static final int MAX_CHANNEL_BYTES = 249;

  /** A received frame: the channel and where its message lies. */
  public record Parsed(String channel, int messageOffset, int messageLength) {}

  private ClusterFrames() {}

  /** The frame for {@code message} on {@code channel}. */
  public static byte[] frame(String channel, byte[] message) {
    byte[] name = channel.getBytes(StandardCharsets.UTF_8);
    if (name.length > MAX_CHANNEL_BYTES) {
      throw new IllegalArgumentException("channel name of " + name.length + " bytes is too long");
    }
    byte[] frame = new byte[2 + name.length + message.length];
    frame[0] = (byte) (name.length >>> 8);
    frame[1] = (byte) name.length;
    System.arraycopy(name, 0, frame, 2, name.length);
    System.arraycopy(message, 0, frame, 2 + name.length, message.length);
    return frame;
  }

  /** Parses a frame a peer sent; empty when it is malformed. */
  public static Optional<Parsed> parse(DirectBuffer buffer, int offset, int length) {
    if (length < 2) {
      return Optional.empty();
    }
    int nameLength = (buffer.getByte(offset) & 0xff) << 8 | buffer.getByte(offset + 1) & 0xff;
    if (nameLength == 0 || nameLength > MAX_CHANNEL_BYTES || 2 + nameLength > length) {
      return Optional.empty();
    }
    String channel = buffer.getStringWithoutLengthUtf8(offset + 2, nameLength);
    return Optional.of(new Parsed(channel, 2 + nameLength, length - 2 - nameLength));
  }
}
