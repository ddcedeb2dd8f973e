package io.rubinbft.orderer.msp;

import io.rubinbft.orderer.crypto.Sha256;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fabric's finalizeSetupCAs and setupTLSCAs (msp/mspimplsetup.go) for one set of CA certificates,
 * an MSP's or its TLS CAs': each must be a CA, carry a Subject Key Identifier, chain to one of the
 * roots and, below a root, not be revoked by the MSP's CRLs. Failures in Fabric's words, e.g.
 * {@code CA Certificate is not valid, (SN: 4097): The certificate has been revoked}.
 */
final class CaCertificateChecks {

  private CaCertificateChecks() {}

  /**
   * Checks the CAs and returns their chains with the certification tree's internal nodes marked.
   *
   * @throws MspConfigException naming the first CA (roots first) that fails
   */
  static CertificationChains check(
      List<X509Certificate> roots,
      List<X509Certificate> intermediates,
      RevocationLists crls,
      Sha256 sha256)
      throws MspConfigException {
    CertificationChains chains = new CertificationChains(roots, intermediates, sha256);
    List<X509Certificate> all = new ArrayList<>(roots);
    all.addAll(intermediates);
    for (X509Certificate ca : all) {
      if (ca.getBasicConstraints() < 0) {
        throw new MspConfigException(
            "CA Certificate did not have the CA attribute, (SN: " + hexSerial(ca) + ")");
      }
      if (KeyIdentifiers.subjectKeyIdentifier(ca).isEmpty()) {
        throw new MspConfigException(
            "CA Certificate problem with Subject Key Identifier extension, (SN: "
                + hexSerial(ca)
                + "): subjectKeyIdentifier not found in certificate");
      }
      Optional<String> problem = chainProblem(chains, ca, crls);
      if (problem.isPresent()) {
        throw new MspConfigException(
            "CA Certificate is not valid, (SN: " + ca.getSerialNumber() + "): " + problem.get());
      }
    }
    try {
      return chains.withInternalNodes();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("an intermediate CA that chained no longer does", e);
    }
  }

  private static Optional<String> chainProblem(
      CertificationChains chains, X509Certificate ca, RevocationLists crls) {
    List<X509Certificate> chain;
    try {
      chain = chains.chainOf(ca);
    } catch (GeneralSecurityException e) {
      return Optional.of("could not obtain certification chain: " + e.getMessage());
    }
    return chain.size() == 1 ? Optional.empty() : crls.problem(ca, chain.get(1));
  }

  /** Go's %x of a serial number, as Fabric prints it in two of these messages. */
  private static String hexSerial(X509Certificate certificate) {
    return certificate.getSerialNumber().toString(16);
  }
}
