package io.rubinbft.testdata.fuzz;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Seeded corruptions of valid samples, aimed at what a decoder trusts: bits, lengths and counts (32
 * and 64 bits, either byte order, protobuf varints), tags, and the input's own extent (insertions,
 * deletions, truncation, repeats, splices of two samples). Some inputs are pure random bytes. A
 * mutation of an empty input is random bytes.
 */
public final class Mutator {

  /** Values a length or count field is set to: empty, off by one, huge, negative, 16-bit edges. */
  private static final long[] INTERESTING = {
    0,
    1,
    2,
    -1,
    0x7F,
    0x80,
    0xFF,
    0x7FFF,
    0x8000,
    0xFFFF,
    0x10000,
    1 << 20,
    1 << 24,
    1 << 30,
    Integer.MAX_VALUE,
    Integer.MIN_VALUE,
    0xFFFF_FFFFL,
    Long.MAX_VALUE,
    Long.MIN_VALUE
  };

  private static final int MAX_STACKED = 4;
  private static final int MAX_CHUNK = 32;

  private final List<byte[]> samples;
  private final int maxRandomBytes;

  /**
   * @param samples valid inputs to start from (at least one)
   * @param maxRandomBytes the longest pure random input
   */
  public Mutator(List<byte[]> samples, int maxRandomBytes) {
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("a mutator needs at least one valid sample");
    }
    this.samples = List.copyOf(samples);
    this.maxRandomBytes = maxRandomBytes;
  }

  /** One input: mostly a sample with 1 to 4 stacked mutations, sometimes random bytes. */
  public byte[] next(RandomGenerator random) {
    if (random.nextInt(20) == 0) {
      return randomBytes(random, random.nextInt(maxRandomBytes + 1));
    }
    byte[] bytes = sample(random);
    int mutations = 1 + random.nextInt(MAX_STACKED);
    for (int i = 0; i < mutations; i++) {
      bytes = mutate(bytes, random);
    }
    return bytes;
  }

  /** One mutation of {@code bytes} (which it may change). */
  public byte[] mutate(byte[] bytes, RandomGenerator random) {
    if (bytes.length == 0) {
      return randomBytes(random, 1 + random.nextInt(MAX_CHUNK));
    }
    int at = random.nextInt(bytes.length);
    return switch (random.nextInt(12)) {
      case 0 -> flipBit(bytes, at, random);
      case 1 -> set(bytes, at, (byte) INTERESTING[random.nextInt(INTERESTING.length)]);
      case 2 -> putNumber(bytes, at, interesting(random), Integer.BYTES, random.nextBoolean());
      case 3 -> putNumber(bytes, at, interesting(random), Long.BYTES, random.nextBoolean());
      case 4 -> putNumber(bytes, at, interesting(random), Short.BYTES, random.nextBoolean());
      case 5 -> insert(bytes, at, randomBytes(random, 1 + random.nextInt(MAX_CHUNK)));
      case 6 -> insert(bytes, at, varint(interesting(random)));
      case 7 -> delete(bytes, at, 1 + random.nextInt(Math.min(MAX_CHUNK, bytes.length - at)));
      case 8 -> Arrays.copyOf(bytes, at);
      case 9 -> repeat(bytes, at, random);
      case 10 -> splice(bytes, at, sample(random), random);
      default -> set(bytes, at, (byte) random.nextInt());
    };
  }

  private byte[] sample(RandomGenerator random) {
    return samples.get(random.nextInt(samples.size())).clone();
  }

  private static long interesting(RandomGenerator random) {
    long value = INTERESTING[random.nextInt(INTERESTING.length)];
    return random.nextInt(4) == 0 ? value + random.nextInt(-2, 3) : value;
  }

  private static byte[] flipBit(byte[] bytes, int at, RandomGenerator random) {
    bytes[at] ^= (byte) (1 << random.nextInt(Byte.SIZE));
    return bytes;
  }

  private static byte[] set(byte[] bytes, int at, byte value) {
    bytes[at] = value;
    return bytes;
  }

  /** Overwrites up to {@code width} bytes at {@code at}, clipped at the end of the input. */
  private static byte[] putNumber(byte[] bytes, int at, long value, int width, boolean bigEndian) {
    for (int i = 0; i < width && at + i < bytes.length; i++) {
      int shift = Byte.SIZE * (bigEndian ? width - 1 - i : i);
      bytes[at + i] = (byte) (value >>> shift);
    }
    return bytes;
  }

  /** Protobuf's base-128 varint: the shape of every protobuf length, count and tag. */
  private static byte[] varint(long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long rest = value;
    while ((rest & ~0x7FL) != 0) {
      out.write((int) ((rest & 0x7F) | 0x80));
      rest >>>= 7;
    }
    out.write((int) rest);
    return out.toByteArray();
  }

  private static byte[] insert(byte[] bytes, int at, byte[] inserted) {
    byte[] longer = new byte[bytes.length + inserted.length];
    System.arraycopy(bytes, 0, longer, 0, at);
    System.arraycopy(inserted, 0, longer, at, inserted.length);
    System.arraycopy(bytes, at, longer, at + inserted.length, bytes.length - at);
    return longer;
  }

  private static byte[] delete(byte[] bytes, int at, int count) {
    byte[] shorter = new byte[bytes.length - count];
    System.arraycopy(bytes, 0, shorter, 0, at);
    System.arraycopy(bytes, at + count, shorter, at, bytes.length - at - count);
    return shorter;
  }

  /** A chunk of the input inserted again right after itself, 1 to 8 times. */
  private static byte[] repeat(byte[] bytes, int at, RandomGenerator random) {
    int length = 1 + random.nextInt(Math.min(MAX_CHUNK, bytes.length - at));
    byte[] chunk = Arrays.copyOfRange(bytes, at, at + length);
    byte[] result = bytes;
    int times = 1 + random.nextInt(8);
    for (int i = 0; i < times; i++) {
      result = insert(result, at, chunk);
    }
    return result;
  }

  /** This input's first {@code at} bytes, then another sample's from a random point. */
  private static byte[] splice(byte[] bytes, int at, byte[] other, RandomGenerator random) {
    int from = other.length == 0 ? 0 : random.nextInt(other.length);
    byte[] spliced = Arrays.copyOf(bytes, at + other.length - from);
    System.arraycopy(other, from, spliced, at, other.length - from);
    return spliced;
  }

  private static byte[] randomBytes(RandomGenerator random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
