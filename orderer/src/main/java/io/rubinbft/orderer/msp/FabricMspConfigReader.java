package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.crypto.Sha256;
import java.security.GeneralSecurityException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.hyperledger.fabric.protos.msp.FabricNodeOUs;
import org.hyperledger.fabric.protos.msp.FabricOUIdentifier;
import org.hyperledger.fabric.protos.msp.MSPConfig;

/**
 * Builds a {@link FabricMsp} from the {@code MSPConfig} value of an org group in a channel config.
 */
public final class FabricMspConfigReader {

  /** Fabric's {@code msp.FABRIC} provider type; 1 is Idemix. */
  private static final int X509_MSP_TYPE = 0;

  private final CryptoProvider provider;
  private final Sha256 sha256;

  public FabricMspConfigReader(CryptoProvider provider) {
    this.provider = provider;
    this.sha256 = new Sha256(provider);
  }

  public FabricMsp read(MSPConfig config) throws MspConfigException {
    if (config.getType() != X509_MSP_TYPE) {
      throw new MspConfigException(
          "MSP type " + config.getType() + " is not supported (only X.509 MSPs, type 0)");
    }
    FabricMSPConfig fabric;
    try {
      fabric = FabricMSPConfig.parseFrom(config.getConfig());
    } catch (InvalidProtocolBufferException e) {
      throw new MspConfigException("MSP config is not a FabricMSPConfig: " + e.getMessage(), e);
    }
    return read(fabric);
  }

  /**
   * Sets the MSP up as Fabric's setupV142 does (the MSP version of every channel capability this
   * orderer runs), in its order: CAs and CRLs, the CA checks, TLS CAs, OUs, NodeOUs, admins. A
   * config Fabric refuses is refused with Fabric's text, e.g. {@code CA Certificate is not valid,
   * (SN: 4097): The certificate has been revoked}.
   */
  public FabricMsp read(FabricMSPConfig config) throws MspConfigException {
    String name = config.getName();
    if (name.isEmpty()) {
      throw new MspConfigException("MSP config has no name");
    }
    checkCryptoConfig(name, config);
    List<X509Certificate> roots = certificates(name, "root cert", config.getRootCertsList());
    if (roots.isEmpty()) {
      throw new MspConfigException("MSP " + name + ": expected at least one CA certificate");
    }
    List<X509Certificate> intermediates =
        certificates(name, "intermediate cert", config.getIntermediateCertsList());
    List<X509Certificate> admins = certificates(name, "admin cert", config.getAdminsList());
    RevocationLists crls = new RevocationLists(crls(name, config.getRevocationListList()));
    CertificationChains chains = CaCertificateChecks.check(roots, intermediates, crls, sha256);
    List<X509Certificate> tlsRoots =
        certificates(name, "TLS root cert", config.getTlsRootCertsList());
    List<X509Certificate> tlsIntermediates =
        certificates(name, "TLS intermediate cert", config.getTlsIntermediateCertsList());
    CaCertificateChecks.check(tlsRoots, tlsIntermediates, crls, sha256);
    List<OuIdentifier> requiredOus = new ArrayList<>();
    for (FabricOUIdentifier ou : config.getOrganizationalUnitIdentifiersList()) {
      requiredOus.add(
          new OuIdentifier(
              ou.getOrganizationalUnitIdentifier(),
              certifiersOf(name, chains, ou.getCertificate())));
    }
    Optional<Map<NodeRole, OuIdentifier>> nodeOus = nodeOus(name, chains, config);
    boolean adminOu = nodeOus.isPresent() && config.getFabricNodeOus().hasAdminOuIdentifier();
    if (admins.isEmpty() && !adminOu) {
      throw new MspConfigException(
          "administrators must be declared when no admin ou classification is set");
    }
    Set<ByteString> adminDers = new HashSet<>();
    for (X509Certificate admin : admins) {
      adminDers.add(Identity.der(admin));
    }
    FabricMsp msp =
        new FabricMsp(
            name,
            chains,
            adminDers,
            crls,
            requiredOus,
            nodeOus,
            tlsRoots,
            tlsIntermediates,
            new EcKeys(provider));
    checkAdmins(msp, admins);
    return msp;
  }

  /**
   * Fabric's postSetupV142: with NodeOUs, every admin certificate holds the client or the admin OU;
   * without, every admin certificate is a valid identity of the MSP.
   */
  private static void checkAdmins(FabricMsp msp, List<X509Certificate> admins)
      throws MspConfigException {
    for (int i = 0; i < admins.size(); i++) {
      Optional<String> problem;
      if (msp.nodeOusEnabled()) {
        problem = msp.notClientNorAdmin(admins.get(i), i);
      } else if (msp.validate(admins.get(i)) instanceof IdentityResult.Invalid invalid) {
        problem = Optional.of("admin " + i + " is invalid: " + invalid.reason());
      } else {
        problem = Optional.empty();
      }
      if (problem.isPresent()) {
        throw new MspConfigException(problem.get());
      }
    }
  }

  private static void checkCryptoConfig(String name, FabricMSPConfig config)
      throws MspConfigException {
    String hash = config.getCryptoConfig().getIdentityIdentifierHashFunction();
    String family = config.getCryptoConfig().getSignatureHashFamily();
    if (!(hash.isEmpty() || hash.equals("SHA256"))
        || !(family.isEmpty() || family.equals("SHA2"))) {
      throw new MspConfigException(
          "MSP "
              + name
              + ": crypto config "
              + hash
              + "/"
              + family
              + " is not supported (only SHA256/SHA2)");
    }
  }

  private Optional<Map<NodeRole, OuIdentifier>> nodeOus(
      String name, CertificationChains chains, FabricMSPConfig config) throws MspConfigException {
    if (!config.hasFabricNodeOus() || !config.getFabricNodeOus().getEnable()) {
      return Optional.empty();
    }
    FabricNodeOUs nodeOus = config.getFabricNodeOus();
    if (!nodeOus.hasClientOuIdentifier()
        && !nodeOus.hasPeerOuIdentifier()
        && !nodeOus.hasAdminOuIdentifier()
        && !nodeOus.hasOrdererOuIdentifier()) {
      return Optional.empty(); // Fabric: enabled with no NodeOU named is disabled
    }
    Map<NodeRole, FabricOUIdentifier> configured = new EnumMap<>(NodeRole.class);
    if (nodeOus.hasClientOuIdentifier()) {
      configured.put(NodeRole.CLIENT, nodeOus.getClientOuIdentifier());
    }
    if (nodeOus.hasPeerOuIdentifier()) {
      configured.put(NodeRole.PEER, nodeOus.getPeerOuIdentifier());
    }
    if (nodeOus.hasAdminOuIdentifier()) {
      configured.put(NodeRole.ADMIN, nodeOus.getAdminOuIdentifier());
    }
    if (nodeOus.hasOrdererOuIdentifier()) {
      configured.put(NodeRole.ORDERER, nodeOus.getOrdererOuIdentifier());
    }
    Map<NodeRole, OuIdentifier> roles = new EnumMap<>(NodeRole.class);
    for (Map.Entry<NodeRole, FabricOUIdentifier> entry : configured.entrySet()) {
      FabricOUIdentifier ou = entry.getValue();
      if (ou.getOrganizationalUnitIdentifier().isEmpty()) {
        continue;
      }
      ByteString certifiers =
          ou.getCertificate().isEmpty()
              ? ByteString.EMPTY
              : certifiersOf(name, chains, ou.getCertificate());
      roles.put(entry.getKey(), new OuIdentifier(ou.getOrganizationalUnitIdentifier(), certifiers));
    }
    return Optional.of(roles);
  }

  /** The certifiers identifier of a configured CA certificate (a root or an intermediate). */
  private static ByteString certifiersOf(String name, CertificationChains chains, ByteString pem)
      throws MspConfigException {
    X509Certificate ca =
        Pem.firstCertificate(pem)
            .orElseThrow(MspConfigException.about("MSP " + name + ": OU certificate"));
    if (!chains.isRoot(ca) && !chains.isIntermediate(ca)) {
      throw new MspConfigException(
          "MSP "
              + name
              + ": Failed adding OU. Certificate ["
              + ca.getSubjectX500Principal()
              + "] not in root or intermediate certs.");
    }
    try {
      return chains.identifierOf(chains.isRoot(ca) ? List.of(ca) : chains.leafChainOf(ca, true));
    } catch (GeneralSecurityException e) {
      throw new MspConfigException(
          "MSP " + name + ": no chain for OU certificate " + ca.getSubjectX500Principal(), e);
    }
  }

  private static List<X509Certificate> certificates(String name, String what, List<ByteString> pems)
      throws MspConfigException {
    List<X509Certificate> certificates = new ArrayList<>();
    for (ByteString pem : pems) {
      certificates.add(
          Pem.firstCertificate(pem)
              .orElseThrow(MspConfigException.about("MSP " + name + ": " + what)));
    }
    return certificates;
  }

  private static List<X509CRL> crls(String name, List<ByteString> pems) throws MspConfigException {
    List<X509CRL> crls = new ArrayList<>();
    for (ByteString pem : pems) {
      crls.add(
          Pem.firstCrl(pem)
              .orElseThrow(MspConfigException.about("MSP " + name + ": revocation list")));
    }
    return crls;
  }
}
