package io.rubinbft.orderer.tools.bootstrap;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.msp.FabricCryptoConfig;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.hyperledger.fabric.protos.msp.FabricNodeOUs;
import org.hyperledger.fabric.protos.msp.FabricOUIdentifier;
import org.hyperledger.fabric.protos.msp.MSPConfig;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads a verifying MSP folder into the {@code MSPConfig} value configtxgen puts into a channel
 * config, as Fabric's {@code msp.GetVerifyingMspConfig} does: every PEM file of each certificate
 * folder, byte for byte as on disk and in file-name order, the NodeOUs of {@code config.yaml}, and
 * SHA-256 as the identity hash.
 */
public final class MspDirectory {

  /** Fabric's {@code MSPConfig.type} for X.509 MSPs. */
  private static final int FABRIC_MSP_TYPE = 0;

  private MspDirectory() {}

  /** The {@code MSPConfig} value of an organization's MSP group. */
  public static MSPConfig mspValue(Path mspDir, String mspId) {
    return MSPConfig.newBuilder()
        .setType(FABRIC_MSP_TYPE)
        .setConfig(fabricConfig(mspDir, mspId).toByteString())
        .build();
  }

  /** The organization's {@code FabricMSPConfig}. */
  public static FabricMSPConfig fabricConfig(Path mspDir, String mspId) {
    List<ByteString> rootCerts = pemFiles(mspDir.resolve("cacerts"));
    if (rootCerts.isEmpty()) {
      throw new IllegalArgumentException(
          "MSP folder " + mspDir + " has no CA certificate in cacerts/");
    }
    FabricMSPConfig.Builder config =
        FabricMSPConfig.newBuilder()
            .setName(mspId)
            .addAllRootCerts(rootCerts)
            .addAllIntermediateCerts(pemFiles(mspDir.resolve("intermediatecerts")))
            .addAllAdmins(pemFiles(mspDir.resolve("admincerts")))
            .addAllRevocationList(pemFiles(mspDir.resolve("crls")))
            .setCryptoConfig(
                FabricCryptoConfig.newBuilder()
                    .setSignatureHashFamily("SHA2")
                    .setIdentityIdentifierHashFunction("SHA256"))
            .addAllTlsRootCerts(pemFiles(mspDir.resolve("tlscacerts")))
            .addAllTlsIntermediateCerts(pemFiles(mspDir.resolve("tlsintermediatecerts")));
    Path configYaml = mspDir.resolve("config.yaml");
    if (Files.isRegularFile(configYaml)) {
      applyConfigYaml(config, mspDir, configYaml);
    }
    return config.build();
  }

  private static void applyConfigYaml(FabricMSPConfig.Builder config, Path mspDir, Path file) {
    Map<String, Object> yaml = map(load(file), file.toString());
    Object ous = yaml.get("OrganizationalUnitIdentifiers");
    if (ous instanceof List<?> list) {
      for (Object ou : list) {
        config.addOrganizationalUnitIdentifiers(ouIdentifier(mspDir, map(ou, file.toString())));
      }
    }
    Object nodeOus = yaml.get("NodeOUs");
    if (nodeOus != null) {
      config.setFabricNodeOus(nodeOus(mspDir, map(nodeOus, file + " NodeOUs")));
    }
  }

  private static FabricNodeOUs nodeOus(Path mspDir, Map<String, Object> yaml) {
    FabricNodeOUs.Builder nodeOus =
        FabricNodeOUs.newBuilder().setEnable(Boolean.TRUE.equals(yaml.get("Enable")));
    String where = mspDir + " config.yaml NodeOUs";
    if (yaml.get("ClientOUIdentifier") != null) {
      nodeOus.setClientOuIdentifier(
          ouIdentifier(mspDir, map(yaml.get("ClientOUIdentifier"), where)));
    }
    if (yaml.get("PeerOUIdentifier") != null) {
      nodeOus.setPeerOuIdentifier(ouIdentifier(mspDir, map(yaml.get("PeerOUIdentifier"), where)));
    }
    if (yaml.get("AdminOUIdentifier") != null) {
      nodeOus.setAdminOuIdentifier(ouIdentifier(mspDir, map(yaml.get("AdminOUIdentifier"), where)));
    }
    if (yaml.get("OrdererOUIdentifier") != null) {
      nodeOus.setOrdererOuIdentifier(
          ouIdentifier(mspDir, map(yaml.get("OrdererOUIdentifier"), where)));
    }
    return nodeOus.build();
  }

  private static FabricOUIdentifier ouIdentifier(Path mspDir, Map<String, Object> yaml) {
    FabricOUIdentifier.Builder ou =
        FabricOUIdentifier.newBuilder()
            .setOrganizationalUnitIdentifier(
                String.valueOf(yaml.getOrDefault("OrganizationalUnitIdentifier", "")));
    Object certificate = yaml.get("Certificate");
    if (certificate != null && !certificate.toString().isEmpty()) {
      Path file = mspDir.resolve(certificate.toString());
      ou.setCertificate(ByteString.copyFrom(pem(file)));
    }
    return ou.build();
  }

  /** The PEM files of a folder in name order; an absent folder has none. */
  private static List<ByteString> pemFiles(Path dir) {
    List<ByteString> result = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return result;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        byte[] content = SmallFiles.read(file);
        // Fabric skips files that hold no PEM block, so do we.
        if (new String(content, StandardCharsets.US_ASCII).contains("-----BEGIN ")) {
          result.add(ByteString.copyFrom(content));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    return result;
  }

  private static byte[] pem(Path file) {
    byte[] content = SmallFiles.read(file);
    if (!new String(content, StandardCharsets.US_ASCII).contains("-----BEGIN ")) {
      throw new IllegalArgumentException(file + " holds no PEM block");
    }
    return content;
  }

  private static Object load(Path file) {
    return new Yaml(new SafeConstructor(new LoaderOptions()))
        .load(new String(SmallFiles.read(file), StandardCharsets.UTF_8));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object yaml, String where) {
    if (yaml instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new IllegalArgumentException(where + " is not a YAML mapping");
  }
}
