package io.rubinbft.net.frame;

import static io.rubinbft.net.frame.FrameDescriptor.CREDIT_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.FLAGS_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.FRAGMENT_OFFSET_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.LENGTH_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.MESSAGE_LENGTH_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.RESERVED_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.SEQUENCE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.TYPE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.VERSION;
import static io.rubinbft.net.frame.FrameDescriptor.VERSION_OFFSET;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads and writes the header fields of the frame that starts at offset 0 of the wrapped buffer, in
 * place (wrap it over a send or receive slot). Offsets come from {@link FrameDescriptor}.
 */
public final class FrameFlyweight extends UnsafeBuffer {

  public FrameFlyweight() {
    super(0, 0);
  }

  /** Writes a whole header; the caller writes the payload at {@code HEADER_LENGTH}. */
  public FrameFlyweight writeHeader(
      int frameLength,
      FrameType type,
      byte flags,
      int messageLength,
      int fragmentOffset,
      long sequence,
      long credit) {
    putInt(LENGTH_OFFSET, frameLength);
    putByte(VERSION_OFFSET, VERSION);
    putByte(TYPE_OFFSET, type.code());
    putByte(FLAGS_OFFSET, flags);
    putByte(RESERVED_OFFSET, (byte) 0);
    putInt(MESSAGE_LENGTH_OFFSET, messageLength);
    putInt(FRAGMENT_OFFSET_OFFSET, fragmentOffset);
    putLong(SEQUENCE_OFFSET, sequence);
    putLong(CREDIT_OFFSET, credit);
    return this;
  }

  public int frameLength() {
    return getInt(LENGTH_OFFSET);
  }

  public byte version() {
    return getByte(VERSION_OFFSET);
  }

  public byte typeCode() {
    return getByte(TYPE_OFFSET);
  }

  public byte flags() {
    return getByte(FLAGS_OFFSET);
  }

  public byte reserved() {
    return getByte(RESERVED_OFFSET);
  }

  public int messageLength() {
    return getInt(MESSAGE_LENGTH_OFFSET);
  }

  public int fragmentOffset() {
    return getInt(FRAGMENT_OFFSET_OFFSET);
  }

  public long sequence() {
    return getLong(SEQUENCE_OFFSET);
  }

  public long credit() {
    return getLong(CREDIT_OFFSET);
  }
}
