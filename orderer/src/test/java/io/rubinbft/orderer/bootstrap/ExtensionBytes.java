package io.rubinbft.orderer.bootstrap;

import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.x509.Certificate;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;

/** Reads extension values out of a JDK certificate. */
final class ExtensionBytes {

  private ExtensionBytes() {}

  /** Each extension as "oid critical|-", in the order the certificate holds them. */
  static List<String> extensionsInOrder(X509Certificate cert) {
    try {
      Extensions extensions =
          Certificate.getInstance(cert.getEncoded()).getTBSCertificate().getExtensions();
      return Arrays.stream(extensions.getExtensionOIDs())
          .map(
              oid -> oid.getId() + (extensions.getExtension(oid).isCritical() ? " critical" : " -"))
          .toList();
    } catch (CertificateEncodingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static int subjectKeyIdLength(X509Certificate cert) {
    byte[] wrapped = cert.getExtensionValue("2.5.29.14");
    if (wrapped == null) {
      return 0;
    }
    byte[] inner = ASN1OctetString.getInstance(wrapped).getOctets();
    return SubjectKeyIdentifier.getInstance(inner).getKeyIdentifier().length;
  }
}
