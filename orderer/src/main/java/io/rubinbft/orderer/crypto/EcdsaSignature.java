package io.rubinbft.orderer.crypto;

import java.io.IOException;
import java.math.BigInteger;
import java.util.Optional;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;

/**
 * An ECDSA signature (r, s) and Fabric's low-S rule: of the two valid signatures (r, s) and (r, n -
 * s) Fabric accepts only the one with s <= n/2, so a signature cannot be altered into a second
 * valid one (malleability).
 */
public record EcdsaSignature(BigInteger r, BigInteger s) {

  /**
   * Decodes a DER {@code SEQUENCE {INTEGER r, INTEGER s}}; empty unless the encoding is canonical
   * and 0 < r, s < order. The bytes are a client's or a peer's: nothing in them makes this throw.
   */
  public static Optional<EcdsaSignature> fromDer(byte[] der, BigInteger order) {
    try {
      BigInteger[] rs = StandardDSAEncoding.INSTANCE.decode(order, der);
      if (rs[0].signum() <= 0 || rs[1].signum() <= 0) {
        return Optional.empty();
      }
      return Optional.of(new EcdsaSignature(rs[0], rs[1]));
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    } catch (ClassCastException | IllegalStateException e) {
      // BouncyCastle casts what it parsed: a SEQUENCE of something other than two INTEGERs, or not
      // a SEQUENCE, fails as a ClassCastException; a malformed stream can fail as its
      // ASN1ParsingException (an IllegalStateException). Either way: not a signature.
      return Optional.empty();
    }
  }

  /** True when s <= order/2, the only form Fabric accepts. */
  public boolean isLowS(BigInteger order) {
    return s.compareTo(order.shiftRight(1)) <= 0;
  }

  /** The low-S form of this signature: (r, order - s) when s > order/2, else this. */
  public EcdsaSignature toLowS(BigInteger order) {
    return isLowS(order) ? this : new EcdsaSignature(r, order.subtract(s));
  }

  /** Canonical DER encoding. */
  public byte[] toDer(BigInteger order) {
    try {
      return StandardDSAEncoding.INSTANCE.encode(order, r, s);
    } catch (IOException e) {
      throw new IllegalStateException("DER encoding of an in-range ECDSA signature failed", e);
    }
  }
}
