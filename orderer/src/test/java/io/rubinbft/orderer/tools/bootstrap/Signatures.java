package io.rubinbft.orderer.tools.bootstrap;

import java.math.BigInteger;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.nist.NISTNamedCurves;

/** Checks on DER ECDSA P-256 signatures. */
final class Signatures {

  static final BigInteger P256_ORDER = NISTNamedCurves.getByName("P-256").getN();

  private Signatures() {}

  static boolean isLowS(byte[] der) {
    BigInteger s = ASN1Integer.getInstance(ASN1Sequence.getInstance(der).getObjectAt(1)).getValue();
    return s.compareTo(P256_ORDER.shiftRight(1)) <= 0;
  }
}
