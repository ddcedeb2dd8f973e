package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.Sha256;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertStore;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXCertPathBuilderResult;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Builds a certificate's chain to one of an MSP's root CAs with the JDK's PKIX path builder, never
 * fetching revocation data. As in Fabric's MSP, the chain is checked at the certificate's own
 * NotBefore (+1 s): an identity's expiry is a separate, explicit check, not a chain failure. Once
 * the tree's internal nodes are known ({@link #withInternalNodes}), an identity must be issued by a
 * leaf of the tree: with intermediates, not by the root that certified them.
 */
final class CertificationChains {

  private final List<X509Certificate> roots;
  private final Set<TrustAnchor> anchors;
  private final List<X509Certificate> intermediates;
  private final Set<X509Certificate> internalNodes;
  private final Sha256 sha256;

  CertificationChains(
      List<X509Certificate> roots, List<X509Certificate> intermediates, Sha256 sha256) {
    this(roots, intermediates, Set.of(), sha256);
  }

  private CertificationChains(
      List<X509Certificate> roots,
      List<X509Certificate> intermediates,
      Set<X509Certificate> internalNodes,
      Sha256 sha256) {
    this.sha256 = sha256;
    this.roots = List.copyOf(roots);
    this.anchors =
        roots.stream().map(root -> new TrustAnchor(root, null)).collect(Collectors.toSet());
    this.intermediates = List.copyOf(intermediates);
    this.internalNodes = Set.copyOf(internalNodes);
  }

  /**
   * These chains with the certification tree's internal nodes marked, as Fabric's
   * certificationTreeInternalNodesMap: every CA above one of the intermediates on its chain.
   *
   * @throws GeneralSecurityException when an intermediate does not chain to a root
   */
  CertificationChains withInternalNodes() throws GeneralSecurityException {
    Set<X509Certificate> internal = new HashSet<>();
    for (X509Certificate intermediate : intermediates) {
      List<X509Certificate> chain = chainOf(intermediate);
      internal.addAll(chain.subList(1, chain.size()));
    }
    return new CertificationChains(roots, intermediates, internal, sha256);
  }

  /**
   * Fabric's getValidationChain: the chain of {@code certificate}, whose issuer (or, for the chain
   * of one of the MSP's own CAs, itself) must be a leaf of the certification tree.
   *
   * @param ofCa whether {@code certificate} is one of the MSP's CAs (an OU's certifier)
   */
  List<X509Certificate> leafChainOf(X509Certificate certificate, boolean ofCa)
      throws GeneralSecurityException {
    List<X509Certificate> chain = chainOf(certificate);
    if (chain.size() < 2) {
      throw new CertPathBuilderException(
          "expected a chain of length at least 2, got " + chain.size());
    }
    if (internalNodes.contains(chain.get(ofCa ? 0 : 1))) {
      throw new CertPathBuilderException(
          "invalid validation chain. Parent certificate should be a leaf of the certification"
              + " tree");
    }
    return chain;
  }

  boolean isRoot(X509Certificate certificate) {
    return roots.contains(certificate);
  }

  boolean isIntermediate(X509Certificate certificate) {
    return intermediates.contains(certificate);
  }

  /** [certificate, issuer, ..., root]; just [root] for a root. */
  List<X509Certificate> chainOf(X509Certificate certificate) throws GeneralSecurityException {
    if (isRoot(certificate)) {
      return List.of(certificate);
    }
    X509CertSelector target = new X509CertSelector();
    target.setCertificate(certificate);
    PKIXBuilderParameters parameters = new PKIXBuilderParameters(anchors, target);
    parameters.setRevocationEnabled(false);
    parameters.setDate(Date.from(certificate.getNotBefore().toInstant().plusSeconds(1)));
    List<X509Certificate> candidates = new ArrayList<>(intermediates);
    candidates.add(certificate);
    parameters.addCertStore(
        CertStore.getInstance("Collection", new CollectionCertStoreParameters(candidates)));
    PKIXCertPathBuilderResult result;
    try {
      result = (PKIXCertPathBuilderResult) CertPathBuilder.getInstance("PKIX").build(parameters);
    } catch (CertPathBuilderException e) {
      // Go's x509 (Fabric's verifier) names the case so; the JDK says no path was found.
      throw new CertPathBuilderException(
          "the supplied identity is not valid: x509: certificate signed by unknown authority", e);
    }
    List<X509Certificate> chain = new ArrayList<>();
    result.getCertPath().getCertificates().forEach(c -> chain.add((X509Certificate) c));
    chain.add(result.getTrustAnchor().getTrustedCert());
    return List.copyOf(chain);
  }

  /**
   * Fabric's certifiers identifier: SHA-256 over the DER of the given CA certificates, issuer first
   * up to the root.
   */
  ByteString identifierOf(List<X509Certificate> cas) {
    byte[][] parts = new byte[cas.size()][];
    for (int i = 0; i < cas.size(); i++) {
      parts[i] = Identity.der(cas.get(i)).toByteArray();
    }
    return ByteString.copyFrom(sha256.hash(parts));
  }
}
