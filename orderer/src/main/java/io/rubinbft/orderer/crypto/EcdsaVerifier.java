package io.rubinbft.orderer.crypto;

import com.google.protobuf.ByteString;
import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPublicKey;
import java.util.Optional;

/**
 * Verifies ECDSA-SHA256 signatures as Fabric does: DER-encoded, over SHA-256 of the message, and
 * only in low-S form. Thread-safe (engines from a shared pool). Pass keys made by {@link
 * EcKeys#importPublic} so the provider does not convert the key on every call.
 */
public final class EcdsaVerifier {

  /** Idle engines kept: more than the threads that verify at the same time on a node. */
  private static final int POOL = 32;

  private final EnginePool<Signature> signatures;

  public EcdsaVerifier(CryptoProvider provider) {
    this.signatures = new EnginePool<>(POOL, provider::newSignature);
  }

  /** Checks {@code derSignature} over the concatenation of {@code messageParts}. */
  public SignatureVerdict verify(PublicKey key, byte[] derSignature, byte[]... messageParts) {
    return verify(
        key,
        derSignature,
        signature -> {
          for (byte[] part : messageParts) {
            signature.update(part);
          }
        });
  }

  /**
   * Checks {@code derSignature} over {@code message} without copying it (a protobuf byte string may
   * be a rope of several buffers, e.g. a block's signed bytes; {@link InPlaceBytes}).
   */
  public SignatureVerdict verify(PublicKey key, ByteString derSignature, ByteString message) {
    return verify(
        key,
        derSignature.toByteArray(),
        signature -> InPlaceBytes.feed(message, signature::update));
  }

  private interface Feed {
    void into(Signature signature) throws SignatureException;
  }

  private SignatureVerdict verify(PublicKey key, byte[] derSignature, Feed message) {
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
    // initVerify resets an engine whatever an earlier failure left in it.
    Signature signature = signatures.take();
    try {
      signature.initVerify(key);
      message.into(signature);
      return signature.verify(derSignature) ? SignatureVerdict.VALID : SignatureVerdict.MISMATCH;
    } catch (InvalidKeyException e) {
      return SignatureVerdict.WRONG_KEY_TYPE;
    } catch (SignatureException e) {
      return SignatureVerdict.MALFORMED;
    } finally {
      signatures.give(signature);
    }
  }
}
