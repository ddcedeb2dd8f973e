package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.EcKeys;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;

/**
 * One organization's X.509 MSP as Fabric's {@code bccspmsp} defines it (the {@code FabricMSPConfig}
 * in a channel config): decides whether a certificate is a valid identity of the org and what its
 * OUs, NodeOU role and admin status are. Built by {@link FabricMspConfigReader}.
 */
public final class FabricMsp {

  private final String name;
  private final CertificationChains chains;
  private final Set<ByteString> adminCertificates;
  private final RevocationLists revocationLists;
  private final List<OuIdentifier> requiredOus;
  private final Map<NodeRole, OuIdentifier> nodeOus;
  private final boolean nodeOusEnabled;
  private final List<X509Certificate> tlsRootCertificates;
  private final List<X509Certificate> tlsIntermediateCertificates;
  private final EcKeys keys;

  FabricMsp(
      String name,
      CertificationChains chains,
      Set<ByteString> adminCertificates,
      RevocationLists revocationLists,
      List<OuIdentifier> requiredOus,
      Optional<Map<NodeRole, OuIdentifier>> nodeOus,
      List<X509Certificate> tlsRootCertificates,
      List<X509Certificate> tlsIntermediateCertificates,
      EcKeys keys) {
    this.name = name;
    this.chains = chains;
    this.adminCertificates = Set.copyOf(adminCertificates);
    this.revocationLists = revocationLists;
    this.requiredOus = List.copyOf(requiredOus);
    this.nodeOusEnabled = nodeOus.isPresent();
    this.nodeOus = Map.copyOf(nodeOus.orElse(Map.of()));
    this.tlsRootCertificates = List.copyOf(tlsRootCertificates);
    this.tlsIntermediateCertificates = List.copyOf(tlsIntermediateCertificates);
    this.keys = keys;
  }

  /** The MSP ID, e.g. "OrdererMSP". */
  public String name() {
    return name;
  }

  public boolean nodeOusEnabled() {
    return nodeOusEnabled;
  }

  /** The org's TLS root CAs ({@code tls_root_certs}), for the TLS trust stores. */
  public List<X509Certificate> tlsRootCertificates() {
    return tlsRootCertificates;
  }

  public List<X509Certificate> tlsIntermediateCertificates() {
    return tlsIntermediateCertificates;
  }

  /** Validates {@code certificate} as an identity of this MSP (expiry excepted, as in Fabric). */
  public IdentityResult validate(X509Certificate certificate) {
    if (certificate.getBasicConstraints() >= 0) {
      return invalid(
          "An X509 certificate with Basic Constraint: Certificate Authority equals true cannot"
              + " be used as an identity");
    }
    if (!(certificate.getPublicKey() instanceof ECPublicKey)) {
      return invalid(
          "could not validate identity's public key algorithm: "
              + certificate.getPublicKey().getAlgorithm()
              + " is not supported");
    }
    List<X509Certificate> chain;
    try {
      chain = chains.leafChainOf(certificate, false);
    } catch (GeneralSecurityException e) {
      return invalid("could not obtain certification chain: " + e.getMessage());
    }
    Optional<String> revoked = revocationLists.problem(certificate, chain.get(1));
    if (revoked.isPresent()) {
      return invalid("could not validate identity against certification chain: " + revoked.get());
    }
    List<OuIdentifier> ous =
        organizationalUnits(certificate, chains.identifierOf(chain.subList(1, chain.size())));
    return classify(certificate, ous);
  }

  private IdentityResult classify(X509Certificate certificate, List<OuIdentifier> ous) {
    if (!requiredOus.isEmpty()
        && ous.stream().noneMatch(held -> requiredOus.stream().anyMatch(r -> r.matchedBy(held)))) {
      return invalid(
          "could not validate identity's OUs: none of the identity's organizational units "
              + ouNames(ous)
              + " are in MSP "
              + name);
    }
    Optional<NodeRole> role = Optional.empty();
    if (nodeOusEnabled) {
      List<NodeRole> roles = nodeRoles(ous);
      if (roles.size() != 1) {
        return invalid(
            "could not validate identity's OUs: "
                + (roles.isEmpty()
                    ? "the identity does not have an OU that resolves to client, peer, orderer, or"
                        + " admin role"
                    : "the identity must have a client, a peer, an orderer, or an admin OU role"
                        + " to be valid, not a combination of them")
                + ". OUs: "
                + ouNames(ous)
                + ", MSP: ["
                + name
                + "]");
      }
      role = Optional.of(roles.get(0));
    }
    boolean admin =
        adminCertificates.contains(Identity.der(certificate))
            || role.equals(Optional.of(NodeRole.ADMIN));
    PublicKey publicKey;
    try {
      publicKey = keys.importPublic(certificate.getPublicKey());
    } catch (GeneralSecurityException e) {
      return invalid("failed to import certificate's public key: " + e.getMessage());
    }
    return new IdentityResult.Valid(new Identity(name, certificate, publicKey, ous, role, admin));
  }

  /**
   * The node roles {@code ous} resolve to; a node OU held with the wrong certifiers resolves to
   * nothing (Fabric rejects it, and so does the caller when no role remains).
   */
  private List<NodeRole> nodeRoles(List<OuIdentifier> ous) {
    List<NodeRole> roles = new ArrayList<>();
    for (OuIdentifier held : ous) {
      nodeOus.forEach(
          (role, configured) -> {
            if (configured.matchedBy(held)) {
              roles.add(role);
            }
          });
    }
    return roles;
  }

  /**
   * Fabric's hasOURole for an admin certificate: why it holds neither the client nor the admin
   * NodeOU (the OU string alone, as Fabric compares it), in Fabric's words; empty when it holds
   * one.
   */
  Optional<String> notClientNorAdmin(X509Certificate admin, int index) {
    List<String> held =
        organizationalUnits(admin, ByteString.EMPTY).stream()
            .map(OuIdentifier::organizationalUnit)
            .toList();
    String client = missingRole(NodeRole.CLIENT, held);
    String adminRole = missingRole(NodeRole.ADMIN, held);
    if (client.isEmpty() || adminRole.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("admin " + index + " is invalid [" + client + "," + adminRole + "]");
  }

  private String missingRole(NodeRole role, List<String> held) {
    OuIdentifier configured = nodeOus.get(role);
    if (configured == null) {
      return "cannot test for classification, node ou for type ["
          + role.name()
          + "], not defined, msp: ["
          + name
          + "]";
    }
    return held.contains(configured.organizationalUnit())
        ? ""
        : "The identity does not contain OU [" + role.name() + "], MSP: [" + name + "]";
  }

  private static List<OuIdentifier> organizationalUnits(
      X509Certificate certificate, ByteString certifiers) {
    List<OuIdentifier> ous = new ArrayList<>();
    X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
    for (RDN rdn : subject.getRDNs(BCStyle.OU)) {
      for (AttributeTypeAndValue value : rdn.getTypesAndValues()) {
        if (value.getType().equals(BCStyle.OU) && value.getValue() instanceof ASN1String text) {
          ous.add(new OuIdentifier(text.getString(), certifiers));
        }
      }
    }
    return ous;
  }

  private static String ouNames(List<OuIdentifier> ous) {
    return ous.stream().map(OuIdentifier::organizationalUnit).toList().toString();
  }

  private static IdentityResult invalid(String reason) {
    return new IdentityResult.Invalid(reason);
  }

  @Override
  public String toString() {
    return "FabricMsp[" + name + "]";
  }
}
