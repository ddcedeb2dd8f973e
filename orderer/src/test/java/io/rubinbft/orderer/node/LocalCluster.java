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
import io.rubinbft.orderer.operations.LogLevels;
import io.rubinbft.orderer.testing.AdminApi;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.FreePorts;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Config;

/**
 * Four orderer nodes on loopback, made the way an operator makes them: crypto and genesis block
 * from our bootstrap, an orderer.yaml per node, channels joined through the participation API over
 * mutual TLS with the orderer admin's certificate.
 */
final class LocalCluster implements AutoCloseable {

  static final String CHANNEL = "mychannel";

  final NetworkSummary network;
  final List<OrdererNode> nodes = new ArrayList<>();
  private final List<Path> configs;

  /** ORDERER_... overrides of every node's orderer.yaml, as an operator's environment sets. */
  private Map<String, String> environment = Map.of();

  private LocalCluster(NetworkSummary network, List<Path> configs) {
    this.network = network;
    this.configs = configs;
  }

  /** Generates the network's files under {@code dir}; no node runs yet. */
  static LocalCluster generate(Path dir) throws IOException {
    PortPlan ports =
        new PortPlan(
            FreePorts.block(4), FreePorts.block(4), FreePorts.block(4), FreePorts.block(4));
    NetworkSummary network =
        LocalNetwork.generate(dir, new LocalNetworkSpec(CHANNEL, 4, ports, 10));
    return new LocalCluster(network, LocalNodeConfigs.write(network));
  }

  /**
   * Makes the nodes started from now on require client certificates on Broadcast/Deliver; their
   * orderer.yaml trusts the orderer org's TLS CA, the channels' configs the rest.
   */
  void requireClientCertificates() {
    environment =
        Map.of(
            "ORDERER_GENERAL_TLS_CLIENTAUTHREQUIRED",
            "true",
            "ORDERER_GENERAL_TLS_CLIENTROOTCAS",
            "[" + network.nodes().getFirst().tlsCaCert() + "]");
  }

  void startAll() throws Exception {
    for (Path config : configs) {
      nodes.add(
          OrdererNode.start(NodeConfigLoader.load(config, environment), new LogLevels("info")));
    }
  }

  /** Starts every node and joins each to the channel with the genesis block. */
  void startAndJoin() throws Exception {
    startAll();
    for (OrdererNode node : nodes) {
      HttpResponse<String> joined = join(node);
      assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
      assertThat(joined.body()).contains("\"consensusRelation\":\"consenter\"");
    }
  }

  void stopAll() {
    nodes.forEach(OrdererNode::close);
    nodes.clear();
  }

  @Override
  public void close() {
    stopAll();
  }

  HttpResponse<String> join(OrdererNode node) throws Exception {
    return admin().join(node.adminAddress().getPort(), Files.readAllBytes(network.genesisBlock()));
  }

  /** {@code osnadmin channel update}: PUT of a CONFIG_UPDATE envelope. */
  HttpResponse<String> update(OrdererNode node, byte[] envelope) throws Exception {
    return admin().update(node.adminAddress().getPort(), envelope);
  }

  /** {@code osnadmin channel fetch}: GET of one block's bytes. */
  HttpResponse<byte[]> fetch(OrdererNode node, String blockId) throws Exception {
    return admin().fetch(node.adminAddress().getPort(), CHANNEL, blockId);
  }

  private AdminApi admin() throws Exception {
    return AdminApi.as(network.ordererAdmin());
  }

  /** gRPC connections to every node's Broadcast/Deliver endpoint, without a client certificate. */
  OrdererChannels connect() throws IOException {
    return connect(ClientTlsFiles.serverOnly(ordererTlsCa()));
  }

  /** gRPC connections to every node's Broadcast/Deliver endpoint with {@code tls}. */
  OrdererChannels connect(ClientTlsFiles tls) throws IOException {
    List<HostPort> endpoints =
        nodes.stream().map(n -> new HostPort("localhost", n.grpcAddress().getPort())).toList();
    return OrdererChannels.connect(endpoints, tls.clientTls());
  }

  /** The CA of the orderers' TLS server certificates. */
  Path ordererTlsCa() {
    return network.nodes().getFirst().tlsCaCert();
  }

  /**
   * Submits through Broadcast to every node, as Fabric's gateway does, and follows Deliver: the
   * load generator checks the chain, every block's consenter signatures, and that nothing accepted
   * by a quorum is lost or ordered twice. A node may answer "request already processed" to a copy
   * that reaches it after the others ordered the transaction (as Fabric's do), so callers count the
   * ordered transactions in the ledgers ({@link #awaitTransactions}).
   */
  LoadReport submit(EnvelopeFactory client, int count) throws Exception {
    return submit(client, count, ClientTlsFiles.serverOnly(ordererTlsCa()));
  }

  /** As {@link #submit(EnvelopeFactory, int)}, connected with {@code tls}. */
  LoadReport submit(EnvelopeFactory client, int count, ClientTlsFiles tls) throws Exception {
    try (OrdererChannels connections = connect(tls)) {
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
                  tls.certificateHash(),
                  block -> signatures.check(block.getHeader(), block.getMetadata()).invalidReason())
              .run();
      assertThat(report.passed()).as(report.format() + "\n" + describeNodes()).isTrue();
      return report;
    }
  }

  /** Each node's replica state, for failure messages. */
  String describeNodes() {
    StringBuilder text = new StringBuilder();
    for (OrdererNode node : nodes) {
      ChannelRuntime runtime = node.channels().runtime(CHANNEL).orElseThrow();
      text.append(runtime.host().status())
          .append(' ')
          .append(runtime.host().failure().orElse("running"))
          .append(" height ")
          .append(runtime.ledger().height())
          .append('\n');
    }
    return text.toString();
  }

  /** Waits until every node's ledger holds {@code count} envelopes after the genesis block. */
  void awaitTransactions(int count) throws InterruptedException {
    for (OrdererNode node : nodes) {
      ChannelLedger ledger = ledger(node);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (transactions(ledger) < count && System.nanoTime() < deadline) {
        ledger.awaitHeight(ledger.height() + 1, Duration.ofMillis(200));
      }
      assertThat(transactions(ledger)).isEqualTo(count);
    }
  }

  /** The newest committed channel config of the first node. */
  Config config() {
    return nodes.getFirst().channels().runtime(CHANNEL).orElseThrow().config().config();
  }

  /** Waits until every node runs under the config of sequence {@code sequence}. */
  void awaitConfigSequence(long sequence) throws InterruptedException {
    for (OrdererNode node : nodes) {
      ChannelRuntime runtime = node.channels().runtime(CHANNEL).orElseThrow();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (runtime.config().sequence() < sequence && System.nanoTime() < deadline) {
        runtime.ledger().awaitHeight(runtime.ledger().height() + 1, Duration.ofMillis(100));
      }
      assertThat(runtime.config().sequence()).isEqualTo(sequence);
    }
  }

  static ChannelLedger ledger(OrdererNode node) {
    return node.channels().runtime(CHANNEL).orElseThrow().ledger();
  }

  private static int transactions(ChannelLedger ledger) {
    int total = 0;
    for (long n = 1; n < ledger.height(); n++) {
      total += ledger.block(n).orElseThrow().block().getData().getDataCount();
    }
    return total;
  }

  /** Every block of the node's chain. */
  static List<Block> blocks(OrdererNode node) {
    ChannelLedger ledger = ledger(node);
    List<Block> blocks = new ArrayList<>();
    for (long n = 0; n < ledger.height(); n++) {
      blocks.add(ledger.block(n).orElseThrow().block());
    }
    return blocks;
  }

  SigningIdentity clientIdentity() {
    return SigningIdentity.fromMspDirectory(
        network.client().mspDir(), network.clientMspId(), CryptoProvider.preferNative());
  }

  /** The application org's admin (cryptogen's Admin@ user beside the client user). */
  SigningIdentity clientOrgAdmin() throws IOException {
    Path users = network.client().mspDir().getParent().getParent();
    try (var listing = Files.list(users)) {
      Path admin =
          listing
              .filter(p -> p.getFileName().toString().startsWith("Admin@"))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no Admin@ user in " + users));
      return SigningIdentity.fromMspDirectory(
          admin.resolve("msp"), network.clientMspId(), CryptoProvider.preferNative());
    }
  }

  SigningIdentity ordererAdmin() {
    return SigningIdentity.fromMspDirectory(
        network.ordererAdmin().mspDir(), network.ordererMspId(), CryptoProvider.preferNative());
  }
}
