package io.rubinbft.orderer.crypto;

import java.security.MessageDigest;

/** SHA-256 on the chosen provider; thread-safe (one digest per thread). */
public final class Sha256 {

  private final ThreadLocal<MessageDigest> digests;

  public Sha256(CryptoProvider provider) {
    this.digests = ThreadLocal.withInitial(provider::newSha256);
  }

  /** SHA-256 of the concatenation of {@code parts}. */
  public byte[] hash(byte[]... parts) {
    MessageDigest digest = digests.get();
    digest.reset();
    for (byte[] part : parts) {
      digest.update(part);
    }
    return digest.digest();
  }
}
