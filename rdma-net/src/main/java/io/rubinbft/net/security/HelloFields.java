package io.rubinbft.net.security;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** The HELLO's variable fields: a 16-bit length, then that many bytes. */
final class HelloFields {

  private static final int LENGTH_BYTES = Short.BYTES;
  private static final int MAX_FIELD = 0xFFFF;

  private HelloFields() {}

  /** Writes {@code field} at {@code offset}; returns the offset after it. */
  static int putField(MutableDirectBuffer buffer, int offset, byte[] field) {
    if (field.length > MAX_FIELD || offset + LENGTH_BYTES + field.length > buffer.capacity()) {
      throw new IllegalArgumentException(
          "a HELLO field of "
              + field.length
              + " bytes at offset "
              + offset
              + " does not fit in "
              + buffer.capacity()
              + " bytes");
    }
    buffer.putShort(offset, (short) field.length);
    buffer.putBytes(offset + LENGTH_BYTES, field);
    return offset + LENGTH_BYTES + field.length;
  }

  /**
   * Reads the field at {@code offset} of a HELLO that ends at {@code end}.
   *
   * @throws HandshakeRejected if the field runs past the end
   */
  static byte[] getField(DirectBuffer buffer, int offset, int end, String name)
      throws HandshakeRejected {
    if (offset + LENGTH_BYTES > end) {
      throw new HandshakeRejected("HELLO ends before its " + name + " length");
    }
    int length = buffer.getShort(offset) & MAX_FIELD;
    if (offset + LENGTH_BYTES + length > end) {
      throw new HandshakeRejected(
          "HELLO's "
              + name
              + " is "
              + length
              + " bytes but only "
              + (end - offset - LENGTH_BYTES)
              + " remain");
    }
    byte[] field = new byte[length];
    buffer.getBytes(offset + LENGTH_BYTES, field);
    return field;
  }

  /** The offset after the field at {@code offset} (read by {@link #getField} before). */
  static int after(DirectBuffer buffer, int offset) {
    return offset + LENGTH_BYTES + (buffer.getShort(offset) & MAX_FIELD);
  }
}
