package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.NodeConfigLoader;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.memory.NodeMemory;
import io.rubinbft.orderer.operations.LogLevels;
import io.rubinbft.orderer.testing.AdminApi;
import io.rubinbft.orderer.testing.ClientCalls;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.EpochSignatureCheck;
import io.rubinbft.orderer.testing.FreePorts;
import io.rubinbft.orderer.tools.bootstrap.LocalNetwork;
import io.rubinbft.orderer.tools.bootstrap.LocalNetworkSpec;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.bootstrap.PortPlan;
import io.rubinbft.orderer.tools.loadgen.LoadGenerator;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import io.rubinbft.orderer.tools.local.LocalNodeConfigs;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

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
  private final Optional<Spare> spare;
  private final Path dir;
  private final LocalNetworkSpec spec;

  /** ORDERER_... overrides of every node's orderer.yaml, as an operator's environment sets. */
  private Map<String, String> environment = Map.of();

  /** A fifth orderer of the same organization that is not in the channel's consenter set. */
  record Spare(NetworkSummary.Node node, Path config) {}

  private LocalCluster(
      NetworkSummary network,
      List<Path> configs,
      Optional<Spare> spare,
      Path dir,
      LocalNetworkSpec spec) {
    this.network = network;
    this.configs = configs;
    this.spare = spare;
    this.dir = dir;
    this.spec = spec;
  }

  /** Generates a 4-node network's files under {@code dir}; no node runs yet. */
  static LocalCluster generate(Path dir) throws IOException {
    return generate(dir, 4);
  }

  /** Generates the files of a network of {@code size} consenters under {@code dir}. */
  static LocalCluster generate(Path dir, int size) throws IOException {
    LocalNetworkSpec spec = new LocalNetworkSpec(CHANNEL, size, ports(size), 10);
    NetworkSummary network = LocalNetwork.generate(dir, spec);
    return new LocalCluster(network, LocalNodeConfigs.write(network), Optional.empty(), dir, spec);
  }

  /**
   * Generates a four-consenter network and a fifth orderer of the same organization outside the
   * consenter set (crypto is made for five, then the genesis block for the first four).
   */
  static LocalCluster generateWithSpare(Path dir) throws IOException {
    LocalNetworkSpec spec = new LocalNetworkSpec(CHANNEL, 5, ports(5), 10);
    NetworkSummary five = LocalNetwork.generate(dir, spec, 4);
    List<Path> configs = LocalNodeConfigs.write(five);
    return new LocalCluster(
        new NetworkSummary(
            five.channelId(),
            five.genesisBlock(),
            five.cryptoDir(),
            five.ordererMspId(),
            five.ordererAdmin(),
            five.adminClientCa(),
            five.clientMspId(),
            five.client(),
            five.nodes().subList(0, 4)),
        configs.subList(0, 4),
        Optional.of(new Spare(five.nodes().getLast(), configs.getLast())),
        dir,
        spec);
  }

  private static PortPlan ports(int nodes) {
    return new PortPlan(
        FreePorts.block(nodes),
        FreePorts.block(nodes),
        FreePorts.block(nodes),
        FreePorts.block(nodes));
  }

  /** The spare orderer's files and ports. */
  Spare spare() {
    return spare.orElseThrow();
  }

  /** Starts the spare orderer (which resumes whatever its data folder holds). */
  OrdererNode startSpare() throws Exception {
    return OrdererNode.start(
        NodeConfigLoader.load(spare().config(), Map.of()), new LogLevels("info"));
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

  /** Starts the first node alone, its channels to fit {@code memory}'s heap. */
  OrdererNode startFirst(NodeMemory memory) throws Exception {
    return startFirst(memory, Map.of(), Clock.systemUTC());
  }

  /**
   * Starts the first node alone, its channels to fit {@code memory}'s heap, with {@code settings}
   * (orderer.yaml's environment overrides) on top and its Broadcast throttle reading {@code
   * throttleClock}.
   */
  OrdererNode startFirst(NodeMemory memory, Map<String, String> settings, Clock throttleClock)
      throws Exception {
    Map<String, String> overrides = new HashMap<>(environment);
    overrides.putAll(settings);
    nodes.add(
        OrdererNode.start(
            NodeConfigLoader.load(configs.getFirst(), overrides),
            new LogLevels("info"),
            memory,
            throttleClock));
    return nodes.getLast();
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

  /** Stops node {@code index}; the others keep running. */
  void stop(int index) {
    nodes.get(index).close();
  }

  /** Starts node {@code index} again from its files, in its place. */
  void restart(int index) throws Exception {
    nodes.set(
        index,
        OrdererNode.start(
            NodeConfigLoader.load(configs.get(index), Map.of()), new LogLevels("info")));
  }

  void stopAll() {
    nodes.forEach(OrdererNode::close);
    nodes.clear();
  }

  @Override
  public void close() {
    stopAll();
  }

  /**
   * The genesis block of another channel {@code name} of the same orderers (their certificates and
   * ports), as configtxgen would make it for them.
   */
  byte[] genesisOf(String name) throws IOException {
    LocalNetworkSpec other =
        new LocalNetworkSpec(name, spec.nodes(), spec.ports(), spec.maxMessageCount());
    return Files.readAllBytes(LocalNetwork.generate(dir, other).genesisBlock());
  }

  HttpResponse<String> join(OrdererNode node) throws Exception {
    return join(node, Files.readAllBytes(network.genesisBlock()));
  }

  /** {@code osnadmin channel join --config-block}: with any config block of the channel. */
  HttpResponse<String> join(OrdererNode node, byte[] configBlock) throws Exception {
    return admin().join(node.adminAddress().getPort(), configBlock);
  }

  /** {@code osnadmin channel update}: PUT of a CONFIG_UPDATE envelope. */
  HttpResponse<String> update(OrdererNode node, byte[] envelope) throws Exception {
    return admin().update(node.adminAddress().getPort(), envelope);
  }

  /** {@code osnadmin channel fetch}: GET of one block's bytes. */
  HttpResponse<byte[]> fetch(OrdererNode node, String blockId) throws Exception {
    return admin().fetch(node.adminAddress().getPort(), CHANNEL, blockId);
  }

  /** {@code osnadmin channel info}: GET of the channel's status. */
  HttpResponse<String> info(OrdererNode node) throws Exception {
    return admin().info(node.adminAddress().getPort(), CHANNEL);
  }

  /** {@code osnadmin channel remove}. */
  HttpResponse<String> remove(OrdererNode node) throws Exception {
    return admin().remove(node.adminAddress().getPort(), CHANNEL);
  }

  /** Where node {@code index} keeps its blocks (RocksDB; its WALs are under it by default). */
  Path ledgerDirectory(int index) throws Exception {
    return NodeConfigLoader.load(configs.get(index), environment).ledgerDirectory();
  }

  /** Where node {@code index} keeps its consensus WALs. */
  Path walDirectory(int index) throws Exception {
    return NodeConfigLoader.load(configs.get(index), environment).walDirectory();
  }

  AdminApi admin() throws Exception {
    return AdminApi.as(network.ordererAdmin());
  }

  /** gRPC connections to every node's Broadcast/Deliver endpoint, without a client certificate. */
  OrdererChannels connect() throws IOException {
    return connect(nodes, ClientTlsFiles.serverOnly(ordererTlsCa()));
  }

  /** gRPC connections to every node's Broadcast/Deliver endpoint with {@code tls}. */
  OrdererChannels connect(ClientTlsFiles tls) throws IOException {
    return connect(nodes, tls);
  }

  /** gRPC connections to {@code to}'s Broadcast/Deliver endpoints, without a client certificate. */
  OrdererChannels connect(List<OrdererNode> to) throws IOException {
    return connect(to, ClientTlsFiles.serverOnly(ordererTlsCa()));
  }

  /** gRPC connections to {@code to}'s Broadcast/Deliver endpoints with {@code tls}. */
  OrdererChannels connect(List<OrdererNode> to, ClientTlsFiles tls) throws IOException {
    List<HostPort> endpoints =
        to.stream().map(n -> new HostPort("localhost", n.grpcAddress().getPort())).toList();
    return OrdererChannels.connect(endpoints, tls.clientTls());
  }

  /** Node {@code node}'s answer to {@code envelope} broadcast on a connection of its own. */
  BroadcastResponse broadcast(int node, Envelope envelope) throws Exception {
    try (OrdererChannels connections = connect()) {
      return ClientCalls.broadcast(connections.channels().get(node), envelope);
    }
  }

  /** The final status of {@code client}'s request for the newest block, from node {@code node}. */
  Status deliverNewest(int node, EnvelopeFactory client) throws Exception {
    try (OrdererChannels connections = connect()) {
      return ClientCalls.deliverNewest(
          connections.channels().get(node), client, CHANNEL, ByteString.EMPTY);
    }
  }

  /** The CA of the orderers' TLS server certificates. */
  Path ordererTlsCa() {
    return network.nodes().getFirst().tlsCaCert();
  }

  /**
   * Submits through Broadcast to every node, as Fabric's gateway does, and follows Deliver: the
   * load generator checks the chain, every block's consenter signatures, and that nothing accepted
   * by a quorum is lost or ordered twice. Callers count the ordered transactions in the ledgers
   * ({@link #awaitTransactions}).
   */
  LoadReport submit(EnvelopeFactory client, int count) throws Exception {
    return submit(client, count, nodes, ClientTlsFiles.serverOnly(ordererTlsCa()));
  }

  /** As {@link #submit(EnvelopeFactory, int)}, connected with {@code tls}. */
  LoadReport submit(EnvelopeFactory client, int count, ClientTlsFiles tls) throws Exception {
    return submit(client, count, nodes, tls);
  }

  /**
   * {@link #submit(EnvelopeFactory, int)} to the nodes {@code to} only (the consenters, once some
   * follow the channel); blocks are checked under the consenter set in force at their height.
   */
  LoadReport submit(EnvelopeFactory client, int count, List<OrdererNode> to) throws Exception {
    return submit(client, count, to, ClientTlsFiles.serverOnly(ordererTlsCa()));
  }

  private LoadReport submit(
      EnvelopeFactory client, int count, List<OrdererNode> to, ClientTlsFiles tls)
      throws Exception {
    LoadReport report =
        run(
            client,
            new LoadSpec(
                CHANNEL,
                count,
                300,
                4,
                // With fewer than four nodes serving, a quorum of all but one answers.
                Math.min(3, Math.max(1, to.size() - 1)),
                OptionalDouble.empty(),
                Duration.ofSeconds(60)),
            to,
            tls);
    assertThat(report.passed()).as(report.format() + "\n" + describeNodes()).isTrue();
    return report;
  }

  /** Runs {@code spec} against every node and returns the report, whatever it says. */
  LoadReport run(EnvelopeFactory client, LoadSpec spec) throws Exception {
    return run(client, spec, nodes, ClientTlsFiles.serverOnly(ordererTlsCa()));
  }

  private LoadReport run(
      EnvelopeFactory client, LoadSpec spec, List<OrdererNode> to, ClientTlsFiles tls)
      throws Exception {
    try (OrdererChannels connections = connect(to, tls)) {
      EpochSignatureCheck signatures = new EpochSignatureCheck(genesis(), n -> block(to, n));
      return new LoadGenerator(
              spec, client, connections.channels(), tls.certificateHash(), signatures)
          .run();
    }
  }

  /** Each node's replica state, for failure messages. */
  String describeNodes() {
    return describe(nodes);
  }

  private static String describe(List<OrdererNode> of) {
    StringBuilder text = new StringBuilder();
    for (OrdererNode node : of) {
      node.channels()
          .runtime(CHANNEL)
          .flatMap(ChannelRuntime::host)
          .ifPresentOrElse(
              host ->
                  text.append("epoch ")
                      .append(host.epoch().epoch())
                      .append(' ')
                      .append(host.status())
                      .append(' ')
                      .append(host.failure().orElse(host.member() ? "running" : "left")),
              () -> text.append("follower"));
      node.channels()
          .channel(CHANNEL)
          .ifPresentOrElse(
              c -> text.append(" height ").append(c.ledger().height()),
              () -> text.append(" not serving"));
      text.append('\n');
    }
    return text.toString();
  }

  /** Block {@code number} from the first of {@code nodes} that has it, waiting for it. */
  private static Block block(List<OrdererNode> nodes, long number) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      for (OrdererNode node : nodes) {
        Optional<StoredBlock> stored = ledger(node).block(number);
        if (stored.isPresent()) {
          return stored.get().block();
        }
      }
      try {
        ledger(nodes.getFirst()).awaitHeight(number + 1, Duration.ofMillis(100));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new IllegalStateException("no node has block " + number);
  }

  /** The channel's genesis config. */
  ChannelConfig genesis() throws Exception {
    return ConfigBlockReader.read(Files.readAllBytes(network.genesisBlock()));
  }

  /** Waits until every node's ledger holds {@code count} envelopes after the genesis block. */
  void awaitTransactions(int count) throws InterruptedException {
    awaitTransactions(count, nodes);
  }

  /** Waits until the ledgers of {@code of} hold {@code count} envelopes after the genesis block. */
  static void awaitTransactions(int count, List<OrdererNode> of) throws InterruptedException {
    for (OrdererNode node : of) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      // A node that joined just now may not serve the channel yet.
      while (node.channels().channel(CHANNEL).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      ChannelLedger ledger = ledger(node);
      while (transactions(ledger) < count && System.nanoTime() < deadline) {
        ledger.awaitHeight(ledger.height() + 1, Duration.ofMillis(200));
      }
      assertThat(transactions(ledger))
          .as("transactions in the ledger of node %d\n%s", of.indexOf(node), describe(of))
          .isEqualTo(count);
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

  /**
   * The node's {@code /healthz} answer, as a probe gets it; {@code query} such as {@code
   * "?exclude=channels"}, or empty.
   */
  static HttpResponse<String> healthz(OrdererNode node, String query) throws Exception {
    URI uri =
        URI.create("http://127.0.0.1:" + node.operationsAddress().getPort() + "/healthz" + query);
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
          HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  /**
   * Waits, at most a minute, until the node's {@code /healthz} fails check {@code component}, and
   * returns that answer: 503 naming the check.
   */
  static HttpResponse<String> awaitFailedCheck(OrdererNode node, String component)
      throws Exception {
    String named = "\"component\":\"" + component + "\"";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    HttpResponse<String> health = healthz(node, "");
    while (!health.body().contains(named) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      health = healthz(node, "");
    }
    assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
    assertThat(health.body()).contains(named);
    return health;
  }

  /** The node's ledger of the channel, whether it orders or follows it. */
  static ChannelLedger ledger(OrdererNode node) {
    return node.channels().channel(CHANNEL).orElseThrow().ledger();
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
    return blocksOf(ledger(node));
  }

  /** Every block of {@code ledger}. */
  static List<Block> blocksOf(ChannelLedger ledger) {
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
