package io.rubinbft.orderer.tools.bootstrap;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * What {@link LocalNetwork} made and where: the genesis block, each node's ports and files, the
 * orderer admin (osnadmin's client, its TLS client certificate issued by the admin client CA, which
 * issues nothing else) and a client user allowed to Broadcast. All paths absolute.
 */
public record NetworkSummary(
    String channelId,
    Path genesisBlock,
    Path cryptoDir,
    String ordererMspId,
    Identity ordererAdmin,
    Path adminClientCa,
    String clientMspId,
    Identity client,
    List<Node> nodes) {

  public NetworkSummary {
    nodes = List.copyOf(nodes);
  }

  /** An identity's local MSP and its TLS client material. */
  public record Identity(
      String name,
      Path mspDir,
      Path signCert,
      Path privateKey,
      Path tlsCert,
      Path tlsKey,
      Path tlsCaCert) {}

  /** One orderer node: consenter id, ports on {@code host}, local MSP, TLS files, data folder. */
  public record Node(
      int id,
      String name,
      String host,
      int broadcastPort,
      int clusterPort,
      int adminPort,
      int operationsPort,
      Path mspDir,
      Path tlsCert,
      Path tlsKey,
      Path tlsCaCert,
      Path dataDir) {}

  /** The summary as YAML (block style, keys in the order above). */
  public String toYaml() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("channel", channelId);
    root.put("genesisBlock", genesisBlock.toString());
    root.put("cryptoDir", cryptoDir.toString());
    root.put("ordererMspId", ordererMspId);
    root.put("ordererAdmin", identity(ordererAdmin));
    root.put("adminClientCa", adminClientCa.toString());
    root.put("clientMspId", clientMspId);
    root.put("client", identity(client));
    root.put("nodes", nodes.stream().map(NetworkSummary::node).toList());
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    return new Yaml(options).dump(root);
  }

  private static Map<String, Object> identity(Identity identity) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("name", identity.name());
    map.put("mspDir", identity.mspDir().toString());
    map.put("signCert", identity.signCert().toString());
    map.put("privateKey", identity.privateKey().toString());
    map.put("tlsCert", identity.tlsCert().toString());
    map.put("tlsKey", identity.tlsKey().toString());
    map.put("tlsCaCert", identity.tlsCaCert().toString());
    return map;
  }

  private static Map<String, Object> node(Node node) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("id", node.id());
    map.put("name", node.name());
    map.put("host", node.host());
    map.put("broadcastPort", node.broadcastPort());
    map.put("clusterPort", node.clusterPort());
    map.put("adminPort", node.adminPort());
    map.put("operationsPort", node.operationsPort());
    map.put("mspDir", node.mspDir().toString());
    map.put("tlsCert", node.tlsCert().toString());
    map.put("tlsKey", node.tlsKey().toString());
    map.put("tlsCaCert", node.tlsCaCert().toString());
    map.put("dataDir", node.dataDir().toString());
    return map;
  }
}
