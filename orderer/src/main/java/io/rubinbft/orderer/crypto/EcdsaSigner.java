package io.rubinbft.orderer.crypto;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPrivateKey;

/**
 * Signs with one EC private key the way Fabric expects: ECDSA-SHA256, DER-encoded, S normalized to
 * S <= n/2 (Fabric rejects high-S signatures). Thread-safe (one {@link Signature} per thread).
 */
public final class EcdsaSigner {

  private final BigInteger order;
  private final ThreadLocal<Signature> signatures;

  /**
   * @param key an EC private key, e.g. from {@link EcKeys#privateKeyFromPem}
   */
  public EcdsaSigner(CryptoProvider provider, PrivateKey key) {
    if (!(key instanceof ECPrivateKey ecKey)) {
      throw new IllegalArgumentException("not an EC private key: " + key.getAlgorithm());
    }
    this.order = ecKey.getParams().getOrder();
    this.signatures =
        ThreadLocal.withInitial(
            () -> {
              Signature signature = provider.newSignature();
              try {
                signature.initSign(key);
              } catch (InvalidKeyException e) {
                throw new IllegalArgumentException(provider.name() + " rejects the key", e);
              }
              return signature;
            });
    signatures.get();
  }

  /** A low-S DER signature over the concatenation of {@code messageParts}. */
  public byte[] sign(byte[]... messageParts) {
    Signature signature = signatures.get();
    try {
      for (byte[] part : messageParts) {
        signature.update(part);
      }
      byte[] der = signature.sign();
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
