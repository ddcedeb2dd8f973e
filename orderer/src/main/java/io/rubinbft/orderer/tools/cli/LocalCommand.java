package io.rubinbft.orderer.tools.cli;

import io.rubinbft.orderer.tools.bootstrap.LocalNetwork;
import io.rubinbft.orderer.tools.bootstrap.LocalNetworkSpec;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.bootstrap.PortPlan;
import io.rubinbft.orderer.tools.local.LocalNodeConfigs;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Prepares a loopback cluster in a folder: crypto material, the channel's genesis block and an
 * orderer.yaml per node (kept as they are when the folder already holds them, so a restart
 * resumes). Prints one line per node for scripts: {@code node NAME CONFIG GRPC ADMIN OPERATIONS}.
 */
@Command(
    name = "local",
    mixinStandardHelpOptions = true,
    description = "Prepare a local loopback cluster (crypto, genesis block, node configs).")
public final class LocalCommand implements Callable<Integer> {

  @Option(names = "--dir", required = true, description = "the cluster's folder")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Path dir;

  @Option(names = "--channel", defaultValue = "mychannel")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  String channel;

  @Option(names = "--nodes", defaultValue = "4")
  int nodes;

  @Option(names = "--max-message-count", defaultValue = "500")
  int maxMessageCount;

  @Option(
      names = "--port-offset",
      defaultValue = "0",
      description = "added to every default port (7050, 7150, 7250, 8443), for a second cluster")
  int portOffset;

  @Override
  public Integer call() throws Exception {
    NetworkSummary network =
        LocalNetwork.generate(
            dir,
            new LocalNetworkSpec(
                channel, nodes, PortPlan.DEFAULT.shifted(portOffset), maxMessageCount));
    List<Path> configs = LocalNodeConfigs.write(network);
    System.out.printf("channel %s %s%n", network.channelId(), network.genesisBlock());
    System.out.printf(
        "admin %s %s %s%n",
        network.ordererAdmin().tlsCert(),
        network.ordererAdmin().tlsKey(),
        network.ordererAdmin().tlsCaCert());
    System.out.printf("client %s %s%n", network.client().mspDir(), network.clientMspId());
    for (int i = 0; i < configs.size(); i++) {
      NetworkSummary.Node node = network.nodes().get(i);
      System.out.printf(
          "node %s %s %d %d %d%n",
          node.name(),
          configs.get(i),
          node.broadcastPort(),
          node.adminPort(),
          node.operationsPort());
    }
    return 0;
  }
}
