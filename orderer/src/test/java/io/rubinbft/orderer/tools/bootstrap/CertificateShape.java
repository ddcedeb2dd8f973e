package io.rubinbft.orderer.tools.bootstrap;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;

/**
 * Everything about a certificate that does not depend on keys, serial numbers or time: what two
 * certificates for the same role must share whether cryptogen or we made them.
 */
record CertificateShape(
    String subjectDer,
    String issuerDer,
    int version,
    String signatureAlgorithm,
    int curveBits,
    String keyUsage,
    List<String> extendedKeyUsage,
    int basicConstraints,
    List<String> alternativeNames,
    List<String> extensionsInOrder,
    int subjectKeyIdLength,
    boolean hasAuthorityKeyId) {

  static CertificateShape of(X509Certificate cert) {
    try {
      return new CertificateShape(
          HexFormat.of().formatHex(cert.getSubjectX500Principal().getEncoded()),
          HexFormat.of().formatHex(cert.getIssuerX500Principal().getEncoded()),
          cert.getVersion(),
          cert.getSigAlgName(),
          ((ECPublicKey) cert.getPublicKey()).getParams().getCurve().getField().getFieldSize(),
          Arrays.toString(cert.getKeyUsage()),
          cert.getExtendedKeyUsage(),
          cert.getBasicConstraints(),
          alternativeNames(cert.getSubjectAlternativeNames()),
          ExtensionBytes.extensionsInOrder(cert),
          ExtensionBytes.subjectKeyIdLength(cert),
          cert.getExtensionValue("2.5.29.35") != null);
    } catch (CertificateParsingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static List<String> alternativeNames(Collection<List<?>> names) {
    return names == null ? List.of() : names.stream().map(Object::toString).toList();
  }
}
