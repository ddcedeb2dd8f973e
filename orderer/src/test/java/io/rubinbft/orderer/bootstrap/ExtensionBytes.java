package io.rubinbft.orderer.bootstrap;

import java.security.cert.X509Certificate;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;

/** Reads extension values out of a JDK certificate. */
final class ExtensionBytes {

  private ExtensionBytes() {}

  static int subjectKeyIdLength(X509Certificate cert) {
    byte[] wrapped = cert.getExtensionValue("2.5.29.14");
    if (wrapped == null) {
      return 0;
    }
    byte[] inner = ASN1OctetString.getInstance(wrapped).getOctets();
    return SubjectKeyIdentifier.getInstance(inner).getKeyIdentifier().length;
  }
}
