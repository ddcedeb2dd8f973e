package io.rubinbft.orderer.crypto;

import com.google.protobuf.ByteString;
import java.security.MessageDigest;

/** SHA-256 on the chosen provider; thread-safe (digests from a shared pool). */
public final class Sha256 {

  /** Idle digests kept: more than the threads that hash at the same time on a node. */
  private static final int POOL = 32;

  private final EnginePool<MessageDigest> digests;

  public Sha256(CryptoProvider provider) {
    this.digests = new EnginePool<>(POOL, provider::newSha256);
  }

  /** SHA-256 of the concatenation of {@code parts}. */
  public byte[] hash(byte[]... parts) {
    MessageDigest digest = digests.take();
    for (byte[] part : parts) {
      digest.update(part);
    }
    byte[] hash = digest.digest();
    digests.give(digest);
    return hash;
  }

  /** SHA-256 of {@code bytes}, read where they lie ({@link InPlaceBytes}). */
  public byte[] hash(ByteString bytes) {
    MessageDigest digest = digests.take();
    InPlaceBytes.<RuntimeException>feed(bytes, digest::update);
    byte[] hash = digest.digest();
    digests.give(digest);
    return hash;
  }
}
