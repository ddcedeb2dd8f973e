package io.rubinbft.orderer.crypto;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JCA provider that does ECDSA P-256 and SHA-256 for the orderer. Signature verification is the
 * CPU floor of a BFT orderer, so the native Amazon Corretto Crypto Provider (ACCP) is preferred
 * (much faster than the JDK's SunEC: docs/DEPENDENCIES.md); where its native library cannot load,
 * the JDK's own providers are used and the reason is kept for the health endpoint.
 *
 * <p>Providers are used by reference and not installed into {@link Security}: TLS and everything
 * else in a node keeps the process's provider order. Only a client process may choose to put the
 * native provider first ({@link #installFirst}).
 */
public final class CryptoProvider {

  private static final Logger LOG = LoggerFactory.getLogger(CryptoProvider.class);
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final String DIGEST = "SHA-256";
  private static final String KEY = "EC";

  private final Provider signatureProvider;
  private final Provider digestProvider;
  private final boolean nativeProvider;
  private final Optional<String> fallbackReason;

  private CryptoProvider(
      Provider signatureProvider,
      Provider digestProvider,
      boolean nativeProvider,
      Optional<String> fallbackReason) {
    this.signatureProvider = signatureProvider;
    this.digestProvider = digestProvider;
    this.nativeProvider = nativeProvider;
    this.fallbackReason = fallbackReason;
  }

  /** ACCP when its native library loads and passes its self tests, else the JDK's providers. */
  public static CryptoProvider preferNative() {
    Optional<String> problem = accpProblem();
    if (problem.isEmpty()) {
      Provider accp = AmazonCorrettoCryptoProvider.INSTANCE;
      LOG.info("crypto provider: {} {} (native)", accp.getName(), accp.getVersionStr());
      return new CryptoProvider(accp, accp, true, Optional.empty());
    }
    CryptoProvider jdk = jdk(problem);
    LOG.warn("crypto provider: {} (JDK fallback; ACCP unavailable: {})", jdk.name(), problem.get());
    return jdk;
  }

  /** The JDK's own providers (SunEC for ECDSA, SUN for SHA-256), chosen deliberately. */
  public static CryptoProvider jdk() {
    return jdk(Optional.empty());
  }

  private static CryptoProvider jdk(Optional<String> fallbackReason) {
    try {
      Provider signatures = Signature.getInstance(SIGNATURE).getProvider();
      Provider digests = MessageDigest.getInstance(DIGEST).getProvider();
      return new CryptoProvider(signatures, digests, false, fallbackReason);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK offers no " + SIGNATURE + " or " + DIGEST, e);
    }
  }

  private static Optional<String> accpProblem() {
    try {
      AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
      Throwable loadingError = accp.getLoadingError();
      if (loadingError != null) {
        return Optional.of(String.valueOf(loadingError));
      }
      accp.assertHealthy();
      return Optional.empty();
    } catch (RuntimeException | LinkageError e) {
      return Optional.of(String.valueOf(e));
    }
  }

  /**
   * Puts the native provider first in this process's JCA provider list (nothing when it fell back
   * to the JDK's), so that code asking the JCA for SHA-256 or a SecureRandom by name runs natively
   * too. WHY: the JDK's SHA-256 is Java code that only C2 replaces with the CPU's SHA instructions;
   * under C1 alone it is many times slower (bench/journal/2026-11-21-17-loadgen-cpu.md). For client
   * processes (the load generator hashes every delivered block's data).
   */
  public void installFirst() {
    if (nativeProvider) {
      Security.insertProviderAt(signatureProvider, 1);
    }
  }

  /** Provider name for logs, metrics and health, e.g. "AmazonCorrettoCryptoProvider" or "SunEC". */
  public String name() {
    return signatureProvider.getName();
  }

  /** True when the native ACCP is in use. */
  public boolean isNative() {
    return nativeProvider;
  }

  /** Why ACCP is not in use, when {@link #preferNative()} had to fall back. */
  public Optional<String> fallbackReason() {
    return fallbackReason;
  }

  Signature newSignature() {
    return instance(() -> Signature.getInstance(SIGNATURE, signatureProvider));
  }

  MessageDigest newSha256() {
    return instance(() -> MessageDigest.getInstance(DIGEST, digestProvider));
  }

  KeyFactory newKeyFactory() {
    return instance(() -> KeyFactory.getInstance(KEY, signatureProvider));
  }

  KeyPairGenerator newKeyPairGenerator() {
    return instance(() -> KeyPairGenerator.getInstance(KEY, signatureProvider));
  }

  private interface Lookup<T> {
    T get() throws GeneralSecurityException;
  }

  private <T> T instance(Lookup<T> lookup) {
    try {
      return Objects.requireNonNull(lookup.get());
    } catch (GeneralSecurityException e) {
      // Both providers were checked to offer these algorithms when this object was made.
      throw new IllegalStateException(name() + " lost an algorithm it offered", e);
    }
  }

  @Override
  public String toString() {
    return name() + (nativeProvider ? " (native)" : " (JDK)");
  }
}
