package io.rubinbft.orderer.crypto;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPrivateKey;

/**
 * Signs with one EC private key the way Fabric expects: ECDSA-SHA256, DER-encoded, S normalized to
 * S <= n/2 (Fabric rejects high-S signatures). Thread-safe (engines from a shared pool, each
 * initialized with the key once).
 */
public final class EcdsaSigner {

  /** Idle engines kept: more than the threads that sign at the same time on a node. */
  private static final int POOL = 32;

  private final BigInteger order;
  private final EnginePool<Signature> signatures;

  /**
   * @param key an EC private key, e.g. from {@link EcKeys#privateKeyFromPem}
   */
  public EcdsaSigner(CryptoProvider provider, PrivateKey key) {
    if (!(key instanceof ECPrivateKey ecKey)) {
      throw new IllegalArgumentException("not an EC private key: " + key.getAlgorithm());
    }
    this.order = ecKey.getParams().getOrder();
    this.signatures =
        new EnginePool<>(
            POOL,
            () -> {
              Signature signature = provider.newSignature();
              try {
                signature.initSign(key);
              } catch (InvalidKeyException e) {
                throw new IllegalArgumentException(provider.name() + " rejects the key", e);
              }
              return signature;
            });
    // Builds the first engine now: a key the provider rejects fails here, not at the first sign.
    signatures.give(signatures.take());
  }

  /** A low-S DER signature over the concatenation of {@code messageParts}. */
  public byte[] sign(byte[]... messageParts) {
    Signature signature = signatures.take();
    try {
      for (byte[] part : messageParts) {
        signature.update(part);
      }
      byte[] der = signature.sign();
      // sign() leaves the engine initialized with the key and empty: ready for the next caller.
      signatures.give(signature);
      EcdsaSignature produced =
          EcdsaSignature.fromDer(der, order)
              .orElseThrow(
                  () -> new IllegalStateException("provider produced a malformed signature"));
      return produced.toLowS(order).toDer(order);
    } catch (SignatureException e) {
      throw new IllegalStateException("signing with an initialized key failed", e);
    }
  }
}
