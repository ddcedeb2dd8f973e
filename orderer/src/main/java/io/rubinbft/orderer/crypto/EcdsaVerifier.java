package io.rubinbft.orderer.crypto;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPublicKey;
import java.util.Optional;

/**
 * Verifies ECDSA-SHA256 signatures as Fabric does: DER-encoded, over SHA-256 of the message, and
 * only in low-S form. Thread-safe (one {@link Signature} per thread). Pass keys made by {@link
 * EcKeys#importPublic} so the provider does not convert the key on every call.
 */
public final class EcdsaVerifier {

  private final ThreadLocal<Signature> signatures;

  public EcdsaVerifier(CryptoProvider provider) {
    this.signatures = ThreadLocal.withInitial(provider::newSignature);
  }

  /** Checks {@code derSignature} over the concatenation of {@code messageParts}. */
  public SignatureVerdict verify(PublicKey key, byte[] derSignature, byte[]... messageParts) {
    if (!(key instanceof ECPublicKey ecKey)) {
      return SignatureVerdict.WRONG_KEY_TYPE;
    }
    BigInteger order = ecKey.getParams().getOrder();
    Optional<EcdsaSignature> parsed = EcdsaSignature.fromDer(derSignature, order);
    if (parsed.isEmpty()) {
      return SignatureVerdict.MALFORMED;
    }
    if (!parsed.get().isLowS(order)) {
      return SignatureVerdict.HIGH_S;
    }
    Signature signature = signatures.get();
    try {
      signature.initVerify(key);
      for (byte[] part : messageParts) {
        signature.update(part);
      }
      return signature.verify(derSignature) ? SignatureVerdict.VALID : SignatureVerdict.MISMATCH;
    } catch (InvalidKeyException e) {
      return SignatureVerdict.WRONG_KEY_TYPE;
    } catch (SignatureException e) {
      return SignatureVerdict.MALFORMED;
    }
  }
}
