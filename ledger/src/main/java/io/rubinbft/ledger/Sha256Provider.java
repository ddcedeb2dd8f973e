package io.rubinbft.ledger;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.util.Optional;

/**
 * Where the ledger's SHA-256 comes from: the native Amazon Corretto Crypto Provider when its
 * library loads and passes its self tests, else the JDK's default provider.
 *
 * <p>Why not simply the JDK's: its SHA-256 is Java code that only C2 replaces with the CPU's SHA
 * instructions. The orderer's nodes run C1 only (the launcher's default on small machines), where
 * the JDK's hash is many times slower than ACCP's (bench/journal/2026-11-21-16-node-cpu.md); every
 * block's data is hashed at least twice per node (the proposal check and the ledger append) and
 * again when read. The provider is used by reference, never installed into {@code
 * java.security.Security}.
 */
final class Sha256Provider {

  private static final String ALGORITHM = "SHA-256";

  /** ACCP, or empty where it cannot run (another platform, a failed self test). */
  private static final Optional<Provider> NATIVE = loadNative();

  private Sha256Provider() {}

  /** A fresh SHA-256 digest from the fastest provider available. */
  static MessageDigest newDigest() {
    try {
      return NATIVE.isPresent()
          ? MessageDigest.getInstance(ALGORITHM, NATIVE.get())
          : MessageDigest.getInstance(ALGORITHM);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform and ACCP provide SHA-256", e);
    }
  }

  private static Optional<Provider> loadNative() {
    try {
      AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
      if (accp.getLoadingError() != null) {
        return Optional.empty();
      }
      accp.assertHealthy();
      return Optional.of(accp);
    } catch (RuntimeException | LinkageError e) {
      // No native library for this platform: the JDK's digest is correct, only slower.
      return Optional.empty();
    }
  }
}
