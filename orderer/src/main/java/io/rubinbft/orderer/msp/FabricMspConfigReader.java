package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
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
    CertificationChains chains =
        new CertificationChains(
            roots,
            certificates(name, "intermediate cert", config.getIntermediateCertsList()),
            sha256);
    Set<ByteString> admins = new HashSet<>();
    for (X509Certificate admin : certificates(name, "admin cert", config.getAdminsList())) {
      admins.add(Identity.der(admin));
    }
    List<OuIdentifier> requiredOus = new ArrayList<>();
    for (FabricOUIdentifier ou : config.getOrganizationalUnitIdentifiersList()) {
      requiredOus.add(
          new OuIdentifier(
              ou.getOrganizationalUnitIdentifier(),
              certifiersOf(name, chains, ou.getCertificate())));
    }
    return new FabricMsp(
        name,
        chains,
        admins,
        crls(name, config.getRevocationListList()),
        requiredOus,
        nodeOus(name, chains, config),
        certificates(name, "TLS root cert", config.getTlsRootCertsList()),
        certificates(name, "TLS intermediate cert", config.getTlsIntermediateCertsList()),
        new EcKeys(provider));
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
    X509Certificate ca = Pem.certificate(pem).orElseThrow("MSP " + name + ": OU certificate");
    if (!chains.isRoot(ca) && !chains.isIntermediate(ca)) {
      throw new MspConfigException(
          "MSP "
              + name
              + ": Failed adding OU. Certificate ["
              + ca.getSubjectX500Principal()
              + "] not in root or intermediate certs.");
    }
    try {
      return chains.identifierOf(chains.chainOf(ca));
    } catch (GeneralSecurityException e) {
      throw new MspConfigException(
          "MSP " + name + ": no chain for OU certificate " + ca.getSubjectX500Principal(), e);
    }
  }

  private static List<X509Certificate> certificates(String name, String what, List<ByteString> pems)
      throws MspConfigException {
    List<X509Certificate> certificates = new ArrayList<>();
    for (ByteString pem : pems) {
      certificates.add(Pem.certificate(pem).orElseThrow("MSP " + name + ": " + what));
    }
    return certificates;
  }

  private static List<X509CRL> crls(String name, List<ByteString> pems) throws MspConfigException {
    List<X509CRL> crls = new ArrayList<>();
    for (ByteString pem : pems) {
      crls.add(Pem.crl(pem).orElseThrow("MSP " + name + ": revocation list"));
    }
    return crls;
  }
}
