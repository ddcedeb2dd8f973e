package io.rubinbft.orderer.tools.cli;

import io.rubinbft.orderer.tools.bootstrap.LocalNetwork;
import io.rubinbft.orderer.tools.bootstrap.LocalNetworkSpec;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.bootstrap.PortPlan;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bootstrap --out DIR --channel NAME --nodes 4}: crypto material and a BFT genesis block for
 * a local cluster, made by our own code (no Fabric tool needed), and a summary of what is where.
 */
@Command(
    name = "bootstrap",
    mixinStandardHelpOptions = true,
    description =
        "Generates cryptogen-style crypto material and a configtxgen-style BFT genesis block for a"
            + " local cluster on 127.0.0.1. Existing material in DIR is kept.")
public final class BootstrapCommand implements Callable<Integer> {

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output folder.")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  private Path out;

  @Option(
      names = "--channel",
      defaultValue = "mychannel",
      description = "Channel name (default: ${DEFAULT-VALUE}).")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  private String channel;

  @Option(
      names = "--nodes",
      defaultValue = "4",
      description = "Number of consenters (default: ${DEFAULT-VALUE}).")
  private int nodes;

  @Option(
      names = "--broadcast-port",
      defaultValue = "7050",
      description = "First Broadcast/Deliver port (default: ${DEFAULT-VALUE}).")
  private int broadcastPort;

  @Option(
      names = "--cluster-port",
      defaultValue = "7150",
      description = "First cluster (consenter) port (default: ${DEFAULT-VALUE}).")
  private int clusterPort;

  @Option(
      names = "--admin-port",
      defaultValue = "7250",
      description = "First channel participation port (default: ${DEFAULT-VALUE}).")
  private int adminPort;

  @Option(
      names = "--operations-port",
      defaultValue = "8443",
      description = "First operations port (default: ${DEFAULT-VALUE}).")
  private int operationsPort;

  @Option(
      names = "--max-message-count",
      defaultValue = "500",
      description = "BatchSize.MaxMessageCount (default: ${DEFAULT-VALUE}).")
  private int maxMessageCount;

  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command with errors reported as one line (the message), exit status 1. */
  public static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new BootstrapCommand());
    commandLine.setExecutionExceptionHandler(
        (exception, line, parseResult) -> {
          line.getErr().println("bootstrap: " + exception.getMessage());
          return 1;
        });
    return commandLine;
  }

  @Override
  public Integer call() {
    boolean existed = Files.exists(out.resolve(LocalNetwork.SUMMARY_FILE));
    LocalNetworkSpec request =
        new LocalNetworkSpec(
            channel,
            nodes,
            new PortPlan(broadcastPort, clusterPort, adminPort, operationsPort),
            maxMessageCount);
    NetworkSummary summary = LocalNetwork.generate(out, request);
    print(spec.commandLine().getOut(), summary, existed, out.toAbsolutePath().normalize());
    return 0;
  }

  private static void print(PrintWriter out, NetworkSummary summary, boolean existed, Path dir) {
    out.printf(
        "%s BFT network for channel '%s' (%d consenters)%n",
        existed ? "Kept the existing" : "Generated a", summary.channelId(), summary.nodes().size());
    out.printf("  genesis block   %s%n", summary.genesisBlock());
    out.printf("  crypto          %s%n", summary.cryptoDir());
    out.printf("  summary         %s%n", dir.resolve(LocalNetwork.SUMMARY_FILE));
    out.printf(
        "  orderer admin   %s (%s), osnadmin client TLS %s%n",
        summary.ordererAdmin().name(), summary.ordererMspId(), summary.ordererAdmin().tlsCert());
    out.printf(
        "  client user     %s (%s), MSP %s%n",
        summary.client().name(), summary.clientMspId(), summary.client().mspDir());
    for (NetworkSummary.Node node : summary.nodes()) {
      out.printf(
          "  consenter %d  %-22s broadcast %s:%d  cluster %d  admin %d  operations %d%n",
          node.id(),
          node.name(),
          node.host(),
          node.broadcastPort(),
          node.clusterPort(),
          node.adminPort(),
          node.operationsPort());
    }
    out.flush();
  }
}
