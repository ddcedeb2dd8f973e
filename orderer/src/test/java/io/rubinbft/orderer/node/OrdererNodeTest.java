package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.bootstrap.LocalNetwork;
import io.rubinbft.orderer.bootstrap.LocalNetworkSpec;
import io.rubinbft.orderer.bootstrap.NetworkSummary;
import io.rubinbft.orderer.bootstrap.PortPlan;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.NodeConfigLoader;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.loadgen.LoadGenerator;
import io.rubinbft.orderer.loadgen.LoadReport;
import io.rubinbft.orderer.loadgen.LoadSpec;
import io.rubinbft.orderer.loadgen.OrdererChannels;
import io.rubinbft.orderer.local.LocalNodeConfigs;
import io.rubinbft.orderer.metrics.ClusterMetricsCheck;
import io.rubinbft.orderer.operations.LogLevels;
import io.rubinbft.orderer.testing.AdminApi;
import io.rubinbft.orderer.testing.FreePorts;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four orderer nodes on loopback, made the way an operator makes them: crypto and genesis block
 * from our bootstrap, an orderer.yaml per node, channels joined through the participation API over
 * mutual TLS with the orderer admin's certificate. They order transactions into identical ledgers,
 * and after all four restart they resume from their ledgers and WALs.
 */
class OrdererNodeTest {

  private static final String CHANNEL = "mychannel";

  @TempDir Path dir;

  private final List<OrdererNode> nodes = new ArrayList<>();
  private NetworkSummary network;
  private List<Path> configs;

  @AfterEach
  void stop() {
    nodes.forEach(OrdererNode::close);
  }

  @Test
  void fourNodesJoinOrderAndResumeAfterAllRestart() throws Exception {
    PortPlan ports =
        new PortPlan(
            FreePorts.block(4), FreePorts.block(4), FreePorts.block(4), FreePorts.block(4));
    network = LocalNetwork.generate(dir, new LocalNetworkSpec(CHANNEL, 4, ports, 10));
    configs = LocalNodeConfigs.write(network);
    startAll();
    AdminApi admin = AdminApi.as(network.ordererAdmin());
    byte[] genesis = Files.readAllBytes(network.genesisBlock());
    for (OrdererNode node : nodes) {
      HttpResponse<String> joined = admin.join(node.adminAddress().getPort(), genesis);
      assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
      assertThat(joined.body()).contains("\"consensusRelation\":\"consenter\"");
    }

    EnvelopeFactory client = new EnvelopeFactory(clientIdentity(), Clock.systemUTC());
    LoadReport first = submit(client, 20);
    awaitTransactions(20);
    // The load generator read the newest block once, then followed the chain from there.
    new ClusterMetricsCheck(nodes, CHANNEL).verify(20, 1 + first.delivery().blocks());

    nodes.forEach(OrdererNode::close);
    nodes.clear();
    startAll();
    submit(client, 10);
    awaitTransactions(30);

    List<BlockHeader> reference = headers(nodes.getFirst());
    for (OrdererNode node : nodes) {
      assertThat(headers(node)).isEqualTo(reference);
    }
  }

  private void startAll() throws Exception {
    for (Path config : configs) {
      nodes.add(OrdererNode.start(NodeConfigLoader.load(config, Map.of()), new LogLevels("info")));
    }
  }

  /**
   * Submits through Broadcast to every node, as Fabric's gateway does, and follows Deliver: the
   * load generator checks the quorum of SUCCESS, the chain, every block's consenter signatures, and
   * that nothing is lost or ordered twice.
   */
  private LoadReport submit(EnvelopeFactory client, int count) throws Exception {
    List<HostPort> endpoints =
        nodes.stream().map(n -> new HostPort("localhost", n.grpcAddress().getPort())).toList();
    NetworkSummary.Node first = network.nodes().getFirst();
    try (OrdererChannels connections =
        OrdererChannels.connect(
            endpoints,
            new OrdererChannels.ClientTls(
                Optional.of(first.tlsCaCert()), Optional.empty(), Optional.empty()))) {
      ChannelConfig channel = ConfigBlockReader.read(Files.readAllBytes(network.genesisBlock()));
      CryptoProvider provider = CryptoProvider.preferNative();
      BlockSignatureVerifier signatures =
          new BlockSignatureVerifier(
              channel.consenters(), new EcKeys(provider), new EcdsaVerifier(provider));
      LoadReport report =
          new LoadGenerator(
                  new LoadSpec(
                      CHANNEL, count, 300, 4, 3, OptionalDouble.empty(), Duration.ofSeconds(60)),
                  client,
                  connections.channels(),
                  com.google.protobuf.ByteString.EMPTY,
                  block -> signatures.check(block.getHeader(), block.getMetadata()).invalidReason())
              .run();
      assertThat(report.passed()).as(report.format()).isTrue();
      assertThat(report.delivery().delivered()).isEqualTo(count);
      return report;
    }
  }

  private void awaitTransactions(int count) throws InterruptedException {
    for (OrdererNode node : nodes) {
      ChannelLedger ledger = node.channels().runtime(CHANNEL).orElseThrow().ledger();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (transactions(ledger) < count && System.nanoTime() < deadline) {
        ledger.awaitHeight(ledger.height() + 1, Duration.ofMillis(200));
      }
      assertThat(transactions(ledger)).isEqualTo(count);
    }
  }

  private static int transactions(ChannelLedger ledger) {
    int total = 0;
    for (long n = 1; n < ledger.height(); n++) {
      total += ledger.block(n).orElseThrow().block().getData().getDataCount();
    }
    return total;
  }

  private static List<BlockHeader> headers(OrdererNode node) {
    ChannelLedger ledger = node.channels().runtime(CHANNEL).orElseThrow().ledger();
    List<BlockHeader> headers = new ArrayList<>();
    for (long n = 0; n < ledger.height(); n++) {
      headers.add(ledger.block(n).orElseThrow().block().getHeader());
    }
    return headers;
  }

  private SigningIdentity clientIdentity() {
    return SigningIdentity.fromMspDirectory(
        network.client().mspDir(), network.clientMspId(), CryptoProvider.preferNative());
  }
}
