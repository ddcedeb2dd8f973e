package io.rubinbft.orderer.msp;

import java.security.GeneralSecurityException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An MSP's CRLs, applied as Fabric's {@code validateCertAgainstChain} applies them: a certificate
 * is revoked when a CRL whose Authority Key Identifier is its issuer's Subject Key Identifier lists
 * its serial number and is signed by that issuer. Only the certificate's direct issuer counts: a
 * revoked intermediate CA is refused when the MSP is set up, so nothing it issued is reached.
 */
final class RevocationLists {

  private final List<X509CRL> crls;

  RevocationLists(List<X509CRL> crls) {
    this.crls = List.copyOf(crls);
  }

  /**
   * Why {@code certificate}, issued by {@code issuer}, does not pass the MSP's CRLs, in Fabric's
   * words; empty when it passes. As in Fabric, an issuer without a Subject Key Identifier, or a CRL
   * without an Authority Key Identifier, fails every certificate checked against it.
   */
  Optional<String> problem(X509Certificate certificate, X509Certificate issuer) {
    Optional<byte[]> issuerKey = KeyIdentifiers.subjectKeyIdentifier(issuer);
    if (issuerKey.isEmpty()) {
      return Optional.of(
          "could not obtain Subject Key Identifier for signer cert: subjectKeyIdentifier not"
              + " found in certificate");
    }
    for (X509CRL crl : crls) {
      Optional<byte[]> authority = KeyIdentifiers.authorityKeyIdentifier(crl);
      if (authority.isEmpty()) {
        return Optional.of(
            "could not obtain Authority Key Identifier for crl: authorityKeyIdentifier not found"
                + " in certificate");
      }
      if (Arrays.equals(authority.get(), issuerKey.get())
          && crl.getRevokedCertificate(certificate.getSerialNumber()) != null
          && signedBy(crl, issuer)) {
        return Optional.of("The certificate has been revoked");
      }
    }
    return Optional.empty();
  }

  private static boolean signedBy(X509CRL crl, X509Certificate issuer) {
    try {
      crl.verify(issuer.getPublicKey());
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
