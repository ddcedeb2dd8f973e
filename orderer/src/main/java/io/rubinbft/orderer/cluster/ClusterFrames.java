package io.rubinbft.orderer.cluster;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.agrona.DirectBuffer;

/**
 * The cluster message envelope: one node-to-node connection carries every channel's consensus
 * messages, each prefixed with its channel's name and the epoch of the sender's replica (the
 * sequence of the config block that started it), so a receiver never hands one epoch's message to
 * another epoch's replica.
 *
 * <pre>
 *  0        1        2 ... 2+L     2+L ... 10+L
 * +--------+--------+-----------+---------------+--------------------------+
 * | length L of the | channel   | epoch         | bft-core message bytes   |
 * | name (u16, BE)  | (UTF-8)   | (u64, BE)     | (MessageCodec)           |
 * +--------+--------+-----------+---------------+--------------------------+
 * </pre>
 */
public final class ClusterFrames {

  /** Fabric channel names are at most 249 characters. */
  static final int MAX_CHANNEL_BYTES = 249;

  private static final int EPOCH_BYTES = Long.BYTES;

  /** A received frame: the channel, the sender's epoch and where its message lies. */
  public record Parsed(String channel, long epoch, int messageOffset, int messageLength) {}

  private ClusterFrames() {}

  /** The frame for {@code message} of {@code channel}'s epoch {@code epoch}. */
  public static byte[] frame(String channel, long epoch, byte[] message) {
    byte[] name = channel.getBytes(StandardCharsets.UTF_8);
    if (name.length > MAX_CHANNEL_BYTES) {
      throw new IllegalArgumentException("channel name of " + name.length + " bytes is too long");
    }
    byte[] frame = new byte[2 + name.length + EPOCH_BYTES + message.length];
    ByteBuffer buffer = ByteBuffer.wrap(frame);
    buffer.putShort((short) name.length).put(name).putLong(epoch).put(message);
    return frame;
  }

  /** Parses a frame a peer sent; empty when it is malformed. */
  public static Optional<Parsed> parse(DirectBuffer buffer, int offset, int length) {
    if (length < 2) {
      return Optional.empty();
    }
    int nameLength = ((buffer.getByte(offset) & 0xff) << 8) | (buffer.getByte(offset + 1) & 0xff);
    int header = 2 + nameLength + EPOCH_BYTES;
    if (nameLength == 0 || nameLength > MAX_CHANNEL_BYTES || header > length) {
      return Optional.empty();
    }
    String channel = buffer.getStringWithoutLengthUtf8(offset + 2, nameLength);
    long epoch = buffer.getLong(offset + 2 + nameLength, ByteOrder.BIG_ENDIAN);
    if (epoch < 0) {
      return Optional.empty();
    }
    return Optional.of(new Parsed(channel, epoch, header, length - header));
  }
}
