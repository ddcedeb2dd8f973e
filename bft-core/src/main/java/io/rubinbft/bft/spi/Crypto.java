package io.rubinbft.bft.spi;

/**
 * Hashing and the replicas' signatures over protocol votes (prepares, checkpoints, view changes,
 * new views). Each replica's instance signs with that replica's own key.
 */
public interface Crypto {

  /** A collision-resistant hash of the bytes (e.g. SHA-256). */
  byte[] digest(byte[] data);

  /** This replica's signature over the bytes. */
  byte[] sign(byte[] data);

  /** Whether {@code signature} is replica {@code replica}'s valid signature over the bytes. */
  boolean verify(int replica, byte[] data, byte[] signature);
}
