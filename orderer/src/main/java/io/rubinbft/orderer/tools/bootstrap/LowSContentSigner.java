package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.crypto.EcKeys;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.DefaultSignatureAlgorithmIdentifierFinder;

/**
 * Signs certificates with ECDSA-SHA256 and a low S value. Fabric's MSP re-encodes certificates
 * whose signature has a high S before it compares them ("sanitizing"); a low S keeps the bytes a
 * node stores and the bytes Fabric compares the same.
 */
final class LowSContentSigner implements ContentSigner {

  private static final AlgorithmIdentifier ECDSA_SHA256 =
      new DefaultSignatureAlgorithmIdentifierFinder().find("SHA256withECDSA");

  private final ECPrivateKey key;
  private final ByteArrayOutputStream content = new ByteArrayOutputStream();

  LowSContentSigner(PrivateKey key) {
    this.key = (ECPrivateKey) key;
  }

  @Override
  public AlgorithmIdentifier getAlgorithmIdentifier() {
    return ECDSA_SHA256;
  }

  @Override
  public OutputStream getOutputStream() {
    return content;
  }

  @Override
  public byte[] getSignature() {
    try {
      Signature signature = Signature.getInstance("SHA256withECDSA", EcKeys.CRYPTOGEN_PROVIDER);
      signature.initSign(key);
      signature.update(content.toByteArray());
      return lowS(signature.sign(), key.getParams().getOrder());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("ECDSA signing with a fresh P-256 key failed", e);
    }
  }

  static byte[] lowS(byte[] derSignature, BigInteger order) {
    ASN1Sequence rs = ASN1Sequence.getInstance(derSignature);
    BigInteger r = ASN1Integer.getInstance(rs.getObjectAt(0)).getValue();
    BigInteger s = ASN1Integer.getInstance(rs.getObjectAt(1)).getValue();
    if (s.compareTo(order.shiftRight(1)) <= 0) {
      return derSignature;
    }
    try {
      return new DERSequence(
              new ASN1Integer[] {new ASN1Integer(r), new ASN1Integer(order.subtract(s))})
          .getEncoded(ASN1Encoding.DER);
    } catch (IOException e) {
      throw new UncheckedIOException("DER encoding of an in-memory signature failed", e);
    }
  }
}
