package io.rubinbft.net;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Test messages whose bytes follow from (stream, index, size), so a receiver can check each one
 * without keeping the sent copies: the first four bytes are the index (for order), the rest a
 * pseudo-random pattern.
 */
public final class Messages {

  private Messages() {}

  public static UnsafeBuffer message(long stream, int index, int size) {
    return new UnsafeBuffer(bytes(stream, index, size));
  }

  public static byte[] bytes(long stream, int index, int size) {
    byte[] bytes = new byte[size];
    new SplittableRandom(stream * 1_000_003L + index).nextBytes(bytes);
    UnsafeBuffer view = new UnsafeBuffer(bytes);
    if (size >= Integer.BYTES) {
      view.putInt(0, index);
    } else if (size > 0) {
      bytes[0] = (byte) index;
    }
    return bytes;
  }

  /** The index a received message claims to be (its first bytes). */
  public static int index(DirectBuffer buffer, int offset, int length) {
    return length >= Integer.BYTES ? buffer.getInt(offset) : buffer.getByte(offset);
  }

  /** Whether a received message is exactly message {@code index} of {@code stream}. */
  public static boolean matches(
      long stream, int index, DirectBuffer buffer, int offset, int length) {
    byte[] received = new byte[length];
    buffer.getBytes(offset, received);
    return Arrays.equals(received, bytes(stream, index, length));
  }
}
