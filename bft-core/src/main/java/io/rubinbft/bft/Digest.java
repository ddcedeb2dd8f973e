package io.rubinbft.bft;

import java.util.Arrays;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/** A collision-resistant hash, compared by content. */
public final class Digest {

  /** The digest the first proposal chains to. */
  public static final Digest GENESIS = new Digest(new byte[32]);

  private final byte[] bytes;

  public Digest(byte[] bytes) {
    if (bytes == null || bytes.length == 0 || bytes.length > 64) {
      throw new IllegalArgumentException("digest must have 1 to 64 bytes");
    }
    this.bytes = bytes.clone();
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public int length() {
    return bytes.length;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof Digest digest && Arrays.equals(bytes, digest.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** The first 8 bytes in hex: enough to tell digests apart in messages. */
  @Override
  public String toString() {
    return HexFormat.of().formatHex(bytes, 0, Math.min(8, bytes.length));
  }
}
