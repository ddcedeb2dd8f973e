package io.rubinbft.orderer.cli;

import io.rubinbft.orderer.config.ConfigException;
import io.rubinbft.orderer.config.ConfigFileLocator;
import io.rubinbft.orderer.config.NodeConfig;
import io.rubinbft.orderer.config.NodeConfigLoader;
import io.rubinbft.orderer.node.OrdererNode;
import io.rubinbft.orderer.operations.LogLevels;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs an orderer node until it is stopped (SIGTERM / Ctrl-C close it cleanly). Configuration: the
 * YAML file, then ORDERER_... environment variables; the initial log levels come from
 * FABRIC_LOGGING_SPEC, as for Fabric's orderer.
 */
@Command(name = "start", mixinStandardHelpOptions = true, description = "Start an orderer node.")
final class StartCommand implements Callable<Integer> {

  @Option(
      names = "--config",
      description =
          "the node's orderer.yaml (default: as Fabric's orderer finds it: orderer.yaml or"
              + " orderer.yml in $FABRIC_CFG_PATH, the working folder, /etc/hyperledger/fabric)")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Path config;

  @Override
  public Integer call() throws Exception {
    NodeConfig node;
    try {
      Path file = config != null ? config : ConfigFileLocator.locate(System.getenv());
      node = NodeConfigLoader.load(file, System.getenv());
    } catch (ConfigException e) {
      System.err.println("start: " + e.getMessage());
      return 2;
    }
    LogLevels logs = new LogLevels(System.getenv().getOrDefault("FABRIC_LOGGING_SPEC", "info"));
    OrdererNode orderer;
    try {
      orderer = OrdererNode.start(node, logs);
    } catch (ConfigException e) {
      System.err.println("start: " + e.getMessage());
      return 2;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  orderer.close();
                  stopped.countDown();
                },
                "shutdown"));
    System.out.printf(
        "orderer serving: grpc %s, admin %s, operations %s, cluster %s%n",
        orderer.grpcAddress(),
        orderer.adminAddress(),
        orderer.operationsAddress(),
        orderer.clusterAddress());
    stopped.await();
    return 0;
  }
}
