package io.rubinbft.orderer.msp;

import java.io.IOException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.Optional;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;

/**
 * The key identifiers Fabric's MSP matches CRLs to CAs by: a CA certificate's Subject Key
 * Identifier and a CRL's Authority Key Identifier. A malformed extension counts as absent.
 */
final class KeyIdentifiers {

  private KeyIdentifiers() {}

  /** The certificate's Subject Key Identifier, if it carries one. */
  static Optional<byte[]> subjectKeyIdentifier(X509Certificate certificate) {
    byte[] extension = certificate.getExtensionValue(Extension.subjectKeyIdentifier.getId());
    if (extension == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          SubjectKeyIdentifier.getInstance(JcaX509ExtensionUtils.parseExtensionValue(extension))
              .getKeyIdentifier());
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * The CRL's Authority Key Identifier's key identifier, if it carries the extension (empty bytes
   * when the extension names its authority otherwise, as Fabric reads it).
   */
  static Optional<byte[]> authorityKeyIdentifier(X509CRL crl) {
    byte[] extension = crl.getExtensionValue(Extension.authorityKeyIdentifier.getId());
    if (extension == null) {
      return Optional.empty();
    }
    try {
      byte[] key =
          AuthorityKeyIdentifier.getInstance(JcaX509ExtensionUtils.parseExtensionValue(extension))
              .getKeyIdentifierOctets();
      return Optional.of(key == null ? new byte[0] : key);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
