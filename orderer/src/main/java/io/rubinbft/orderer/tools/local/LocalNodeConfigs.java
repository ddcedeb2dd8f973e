package io.rubinbft.orderer.tools.local;

import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Writes an {@code orderer.yaml} for each node of a generated local network (loopback addresses,
 * the node's MSP and TLS files, its data folder, mutual TLS on the admin API with the admin client
 * CA, not the TLS CA that issued the consenters' certificates), so a local cluster runs on the same
 * configuration path as a deployed one.
 */
public final class LocalNodeConfigs {

  /** The file name inside each node's data folder. */
  public static final String FILE_NAME = "orderer.yaml";

  private LocalNodeConfigs() {}

  /** Writes every node's config and returns their paths, in node order. */
  public static List<Path> write(NetworkSummary network) throws IOException {
    List<Path> files = new ArrayList<>();
    for (NetworkSummary.Node node : network.nodes()) {
      Files.createDirectories(node.dataDir());
      Path file = node.dataDir().resolve(FILE_NAME);
      Files.writeString(file, yaml().dump(config(network, node)));
      files.add(file);
    }
    return files;
  }

  private static Map<String, Object> config(NetworkSummary network, NetworkSummary.Node node) {
    Map<String, Object> tls = new LinkedHashMap<>();
    tls.put("Enabled", true);
    tls.put("Certificate", node.tlsCert().toString());
    tls.put("PrivateKey", node.tlsKey().toString());
    tls.put("RootCAs", List.of(node.tlsCaCert().toString()));
    Map<String, Object> general = new LinkedHashMap<>();
    general.put("ListenAddress", node.host());
    general.put("ListenPort", node.broadcastPort());
    general.put("TLS", tls);
    general.put("LocalMSPDir", node.mspDir().toString());
    general.put("LocalMSPID", network.ordererMspId());
    general.put("Cluster", Map.of("ListenAddress", node.host(), "ListenPort", node.clusterPort()));
    Map<String, Object> adminTls = new LinkedHashMap<>(tls);
    adminTls.remove("RootCAs");
    adminTls.put("ClientAuthRequired", true);
    adminTls.put("ClientRootCAs", List.of(network.adminClientCa().toString()));
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("General", general);
    config.put("FileLedger", Map.of("Location", node.dataDir().resolve("ledger").toString()));
    config.put(
        "Admin", Map.of("ListenAddress", node.host() + ":" + node.adminPort(), "TLS", adminTls));
    config.put("Operations", Map.of("ListenAddress", node.host() + ":" + node.operationsPort()));
    return config;
  }

  private static Yaml yaml() {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    return new Yaml(options);
  }
}
