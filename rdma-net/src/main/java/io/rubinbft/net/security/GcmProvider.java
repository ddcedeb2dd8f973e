package io.rubinbft.net.security;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Optional;
import javax.crypto.Cipher;

/**
 * Where the frames' AES-GCM ({@link FrameCipher}) comes from: the native Amazon Corretto Crypto
 * Provider (AWS-LC) when its library loads and passes its self tests, else the JDK's own AES-GCM
 * (AES-NI and carry-less multiply intrinsics). Both compute the same ciphertexts and tags, so peers
 * need not agree on the provider; BENCHMARKS.md has their rates. The provider is used by reference,
 * never installed into the process's provider list.
 */
public final class GcmProvider {

  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  private static final Optional<Provider> NATIVE = loadNative();

  private GcmProvider() {}

  /** The provider's name, for logs and stats: "AmazonCorrettoCryptoProvider" or the JDK's. */
  public static String name() {
    try {
      return newCipher().getProvider().getName();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no " + TRANSFORMATION + " cipher", e);
    }
  }

  static Cipher newCipher() throws GeneralSecurityException {
    return NATIVE.isPresent()
        ? Cipher.getInstance(TRANSFORMATION, NATIVE.get())
        : Cipher.getInstance(TRANSFORMATION);
  }

  private static Optional<Provider> loadNative() {
    try {
      AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
      if (accp.getLoadingError() != null) {
        return Optional.empty();
      }
      accp.assertHealthy();
      Cipher.getInstance(TRANSFORMATION, accp);
      return Optional.of(accp);
    } catch (GeneralSecurityException | RuntimeException | LinkageError e) {
      // The JDK's AES-GCM computes the same ciphertexts and tags, a few times slower.
      return Optional.empty();
    }
  }
}
