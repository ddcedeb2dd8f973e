package io.rubinbft.bft.wire;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Utf8;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Writes big-endian fields at a position in a byte array. Without an array it only counts, so one
 * encoding routine both sizes a message exactly and then writes it: no growing buffers, no copies.
 */
final class WireWriter {

  private final byte @Nullable [] buffer;
  private int position;

  private WireWriter(byte @Nullable [] buffer, int offset) {
    this.buffer = buffer;
    this.position = offset;
  }

  /** A writer that only counts the bytes it would write. */
  static WireWriter counting() {
    return new WireWriter(null, 0);
  }

  /** A writer into {@code buffer} from {@code offset}; the caller sized it. */
  static WireWriter into(byte[] buffer, int offset) {
    return new WireWriter(buffer, offset);
  }

  int position() {
    return position;
  }

  WireWriter byteValue(int value) {
    if (buffer != null) {
      buffer[position] = (byte) value;
    }
    position++;
    return this;
  }

  WireWriter booleanValue(boolean value) {
    return byteValue(value ? 1 : 0);
  }

  WireWriter intValue(int value) {
    if (buffer != null) {
      for (int shift = 24; shift >= 0; shift -= 8) {
        buffer[position + 3 - shift / 8] = (byte) (value >>> shift);
      }
    }
    position += Integer.BYTES;
    return this;
  }

  WireWriter longValue(long value) {
    if (buffer != null) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        buffer[position + 7 - shift / 8] = (byte) (value >>> shift);
      }
    }
    position += Long.BYTES;
    return this;
  }

  /** A u32 length, then the bytes. */
  WireWriter bytes(byte[] value) {
    intValue(value.length);
    if (buffer != null) {
      System.arraycopy(value, 0, buffer, position, value.length);
    }
    position += value.length;
    return this;
  }

  WireWriter digest(Digest digest) {
    if (buffer == null) {
      position += Integer.BYTES + digest.length();
      return this;
    }
    return bytes(digest.bytes());
  }

  /** UTF-8, as a u32 length and the bytes. */
  WireWriter string(String value) {
    if (buffer == null) {
      position += Integer.BYTES + Utf8.length(value);
      return this;
    }
    return bytes(value.getBytes(StandardCharsets.UTF_8));
  }

  /** A u32 element count. */
  WireWriter count(int count) {
    return intValue(count);
  }
}
