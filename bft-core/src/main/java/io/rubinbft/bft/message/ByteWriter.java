package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Appends fields into canonical, length-prefixed bytes for hashing and signing. */
final class ByteWriter {

  private byte[] buffer;
  private int length;

  /** A writer sized for {@code expected} bytes; it grows if the guess was short. */
  ByteWriter(int expected) {
    buffer = new byte[Math.max(16, expected)];
  }

  ByteWriter tag(String tag) {
    return bytes(tag.getBytes(StandardCharsets.UTF_8));
  }

  ByteWriter longValue(long value) {
    ensure(Long.BYTES);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buffer[length++] = (byte) (value >>> shift);
    }
    return this;
  }

  ByteWriter bytes(byte[] value) {
    longValue(value.length);
    ensure(value.length);
    System.arraycopy(value, 0, buffer, length, value.length);
    length += value.length;
    return this;
  }

  ByteWriter digest(Digest digest) {
    return bytes(digest.bytes());
  }

  ByteWriter epoch(Epoch epoch) {
    return longValue(epoch.sequence()).digest(epoch.digest());
  }

  byte[] toBytes() {
    return length == buffer.length ? buffer : Arrays.copyOf(buffer, length);
  }

  private void ensure(int extra) {
    if (length + extra > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + extra));
    }
  }
}
