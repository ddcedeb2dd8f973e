package io.rubinbft.bft.wire;

import java.util.Arrays;
import java.util.Random;

/** Seeded corruptions of encoded bytes, aimed at what a decoder trusts: lengths, counts, tags. */
final class Mutations {

  private Mutations() {}

  static byte[] mutate(byte[] bytes, Random random) {
    if (bytes.length == 0) {
      return new byte[] {(byte) random.nextInt()};
    }
    byte[] copy = bytes.clone();
    int at = random.nextInt(bytes.length);
    return switch (random.nextInt(6)) {
      case 0 -> flipBit(copy, at, random);
      case 1 -> overwrite(copy, at, random.nextBoolean() ? (byte) 0xFF : (byte) 0x00);
      case 2 -> overwriteInt(copy, at, interestingInt(random));
      case 3 -> insert(bytes, at, (byte) random.nextInt());
      case 4 -> delete(bytes, at);
      default -> overwrite(copy, at, (byte) random.nextInt());
    };
  }

  private static byte[] flipBit(byte[] bytes, int at, Random random) {
    bytes[at] ^= (byte) (1 << random.nextInt(8));
    return bytes;
  }

  private static byte[] overwrite(byte[] bytes, int at, byte value) {
    bytes[at] = value;
    return bytes;
  }

  /** Big-endian, clipped at the end: the shape of every length and count field. */
  private static byte[] overwriteInt(byte[] bytes, int at, int value) {
    for (int i = 0; i < Integer.BYTES && at + i < bytes.length; i++) {
      bytes[at + i] = (byte) (value >>> (24 - 8 * i));
    }
    return bytes;
  }

  private static int interestingInt(Random random) {
    int[] values = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 70_000, 1 << 24, 65};
    return values[random.nextInt(values.length)];
  }

  private static byte[] insert(byte[] bytes, int at, byte value) {
    byte[] longer = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, longer, 0, at);
    longer[at] = value;
    System.arraycopy(bytes, at, longer, at + 1, bytes.length - at);
    return longer;
  }

  private static byte[] delete(byte[] bytes, int at) {
    byte[] shorter = Arrays.copyOf(bytes, bytes.length - 1);
    System.arraycopy(bytes, at + 1, shorter, at, bytes.length - at - 1);
    return shorter;
  }
}
