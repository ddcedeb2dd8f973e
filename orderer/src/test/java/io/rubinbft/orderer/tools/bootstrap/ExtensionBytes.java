package io.rubinbft.orderer.tools.bootstrap;

import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.x509.Certificate;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;

/** Reads extension values out of a JDK certificate. */
final class ExtensionBytes {

  private ExtensionBytes() {}

  /**
   * Each extension as "oid critical|- value-hex", in the order the certificate holds them; the key
   * identifiers' values (derived from keys) are left out.
   */
  static List<String> extensionsInOrder(X509Certificate cert) {
    try {
      Extensions extensions =
          Certificate.getInstance(cert.getEncoded()).getTBSCertificate().getExtensions();
      return Arrays.stream(extensions.getExtensionOIDs())
          .map(oid -> describe(oid, extensions.getExtension(oid)))
          .toList();
    } catch (CertificateEncodingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static String describe(ASN1ObjectIdentifier oid, Extension extension) {
    boolean keyDerived =
        oid.equals(Extension.subjectKeyIdentifier) || oid.equals(Extension.authorityKeyIdentifier);
    return oid.getId()
        + (extension.isCritical() ? " critical " : " - ")
        + (keyDerived
            ? "(key id)"
            : HexFormat.of().formatHex(extension.getExtnValue().getOctets()));
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
