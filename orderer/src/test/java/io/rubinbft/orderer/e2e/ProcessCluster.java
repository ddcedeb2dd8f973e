package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.metrics.PrometheusText;
import io.rubinbft.orderer.testing.AdminApi;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.EpochSignatureCheck;
import io.rubinbft.orderer.testing.FreePorts;
import io.rubinbft.orderer.tools.bootstrap.ConsenterSpec;
import io.rubinbft.orderer.tools.bootstrap.LocalNetwork;
import io.rubinbft.orderer.tools.bootstrap.LocalNetworkSpec;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.bootstrap.PortPlan;
import io.rubinbft.orderer.tools.loadgen.LoadGenerator;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import io.rubinbft.orderer.tools.local.LocalNodeConfigs;
import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A 4-node cluster of real orderer processes on loopback, made as deploy/local/run.sh makes one:
 * crypto and genesis block from our bootstrap, an orderer.yaml per node on free ports, nodes joined
 * through the participation API with the orderer admin's certificate. Killing it kills every
 * process it started.
 */
// close() waits for what it started to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
final class ProcessCluster implements AutoCloseable {

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

  static final String CHANNEL = "mychannel";

  private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);

  /** How long a condition the cluster should reach may take on a busy two-core machine. */
  static final Duration PATIENCE = Duration.ofMinutes(3);

  private static final String LEADER = "consensus_smartbft_view_leader_id";

  private final NetworkSummary network;
  private final List<NodeProcess> nodes;
  private final AdminApi admin;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ChannelConfig channel;
  private final CryptoProvider provider = CryptoProvider.preferNative();

  /** The load's check of each delivered block, kept across loads (it follows config blocks). */
  private final EpochSignatureCheck blockSignatures;

  private final AtomicInteger blockSource = new AtomicInteger();

  private ProcessCluster(NetworkSummary network, List<NodeProcess> nodes, AdminApi admin)
      throws IOException, InvalidConfigException {
    this.network = network;
    this.nodes = nodes;
    this.admin = admin;
    this.channel = ConfigBlockReader.read(Files.readAllBytes(network.genesisBlock()));
    this.blockSignatures = signatures();
  }

  /**
   * Generates a network of 4 nodes under {@code dir} (logs in {@code dir/logs}).
   *
   * @param clientCertificates whether Broadcast/Deliver require client certificates (mutual TLS:
   *     orderer.yaml trusts the orderer org's TLS CA, the channel config the application orgs')
   */
  static ProcessCluster create(Path dir, int maxMessageCount, boolean clientCertificates)
      throws IOException, GeneralSecurityException, InvalidConfigException {
    return create(dir, 4, 4, maxMessageCount, clientCertificates);
  }

  /**
   * As {@link #create(Path, int, boolean)}, with the crypto material Fabric's own cryptogen made
   * for the test data's network (testdata/fabric, the same organizations, orderers and users): the
   * generator keeps what it finds, so only the genesis block and the node configs are ours.
   */
  static ProcessCluster createWithFabricCrypto(Path dir, int maxMessageCount)
      throws IOException, GeneralSecurityException, InvalidConfigException {
    Path source = FabricTestData.path("crypto");
    Path target = dir.resolve("crypto");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Files.copy(file, target.resolve(source.relativize(file).toString()));
      }
    }
    return create(dir, maxMessageCount, false);
  }

  /**
   * Generates a network of {@code orderers} nodes under {@code dir} whose genesis block names the
   * first {@code consenters}; the others can be added by config updates.
   */
  static ProcessCluster create(
      Path dir, int orderers, int consenters, int maxMessageCount, boolean clientCertificates)
      throws IOException, GeneralSecurityException, InvalidConfigException {
    PortPlan ports =
        new PortPlan(
            FreePorts.block(orderers),
            FreePorts.block(orderers),
            FreePorts.block(orderers),
            FreePorts.block(orderers));
    NetworkSummary network =
        LocalNetwork.generate(
            dir, new LocalNetworkSpec(CHANNEL, orderers, ports, maxMessageCount), consenters);
    List<Path> configs = LocalNodeConfigs.write(network);
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Map<String, String> environment =
        clientCertificates
            ? Map.of(
                "ORDERER_GENERAL_TLS_CLIENTAUTHREQUIRED",
                "true",
                "ORDERER_GENERAL_TLS_CLIENTROOTCAS",
                "[" + network.nodes().getFirst().tlsCaCert() + "]")
            : Map.of();
    List<NodeProcess> nodes = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      String name = network.nodes().get(i).name();
      nodes.add(new NodeProcess(name, configs.get(i), logs.resolve(name + ".log"), environment));
    }
    ProcessCluster cluster =
        new ProcessCluster(network, nodes, AdminApi.as(network.ordererAdmin()));
    // Also when the test JVM is told to exit (e.g. surefire's fork timeout) before @AfterAll.
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> nodes.forEach(NodeProcess::destroy), "kill-nodes"));
    return cluster;
  }

  List<NodeProcess> nodes() {
    return nodes;
  }

  NodeProcess node(int index) {
    return nodes.get(index);
  }

  /** Starts {@code targets} together and waits until each operations endpoint reports healthy. */
  void start(List<NodeProcess> targets) throws IOException, InterruptedException {
    for (NodeProcess node : targets) {
      node.start();
    }
    for (NodeProcess node : targets) {
      int port = spec(node).operationsPort();
      awaitCondition(node + " healthy", () -> healthy(port));
    }
  }

  /**
   * Joins every consenter of the genesis block to the channel with it; each answers 201 as a
   * consenter.
   */
  void joinAll() throws IOException, InterruptedException {
    byte[] genesis = Files.readAllBytes(network.genesisBlock());
    for (NodeProcess node : genesisConsenters()) {
      join(node, genesis, "consenter");
    }
  }

  /** The nodes the genesis block names as consenters. */
  List<NodeProcess> genesisConsenters() {
    return channel.consenters().consenters().stream().map(c -> byConsenterId(c.id())).toList();
  }

  /**
   * {@code osnadmin channel join --config-block}: joins {@code node} with {@code configBlock} and
   * expects 201 with {@code relation} ("consenter" or "follower").
   */
  void join(NodeProcess node, byte[] configBlock, String relation)
      throws IOException, InterruptedException {
    HttpResponse<String> joined = admin.join(spec(node).adminPort(), configBlock);
    assertThat(joined.statusCode()).as(node + ": " + joined.body()).isEqualTo(201);
    assertThat(joined.body()).contains("\"consensusRelation\":\"" + relation + "\"");
  }

  /** The channel's relation as the participation API of {@code node} reports it. */
  String relation(NodeProcess node) throws IOException, InterruptedException {
    HttpResponse<String> info = admin.info(spec(node).adminPort(), CHANNEL);
    assertThat(info.statusCode()).as(node + ": " + info.body()).isEqualTo(200);
    return JsonParser.parseString(info.body())
        .getAsJsonObject()
        .get("consensusRelation")
        .getAsString();
  }

  /** The newest config block {@code node} has, as bytes ({@code osnadmin channel fetch config}). */
  byte[] configBlock(NodeProcess node) throws IOException, InterruptedException {
    HttpResponse<byte[]> fetched = admin.fetch(spec(node).adminPort(), CHANNEL, "config");
    assertThat(fetched.statusCode()).as(node.toString()).isEqualTo(200);
    return fetched.body();
  }

  /** The channel's height as the participation API of {@code node} reports it. */
  long height(NodeProcess node) throws IOException, InterruptedException {
    return height(node, CHANNEL);
  }

  /** The height of {@code channelId} as the participation API of {@code node} reports it. */
  long height(NodeProcess node, String channelId) throws IOException, InterruptedException {
    HttpResponse<String> info = admin.info(spec(node).adminPort(), channelId);
    assertThat(info.statusCode()).as(node + ": " + info.body()).isEqualTo(200);
    return JsonParser.parseString(info.body()).getAsJsonObject().get("height").getAsLong();
  }

  /** The consenter id {@code node} sees as leader, from its operations endpoint's metrics. */
  OptionalLong leaderSeenBy(NodeProcess node) throws IOException, InterruptedException {
    return gauge(node, LEADER);
  }

  /** The value of the channel's gauge {@code name} on {@code node}'s operations endpoint. */
  OptionalLong gauge(NodeProcess node, String name) throws IOException, InterruptedException {
    return gauge(node, name, CHANNEL);
  }

  /** The value of {@code channelId}'s gauge {@code name} on {@code node}'s operations endpoint. */
  OptionalLong gauge(NodeProcess node, String name, String channelId)
      throws IOException, InterruptedException {
    HttpResponse<String> metrics =
        http.send(
            request(operations(node, "/metrics")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    PrometheusText.Family family = PrometheusText.parse(metrics.body()).get(name);
    return family == null
        ? OptionalLong.empty()
        : family.value(name, Map.of("channel", channelId)).stream()
            .mapToLong(Double::longValue)
            .findFirst();
  }

  /** Heap in use on {@code node} ({@code jvm_memory_used_bytes{area="heap"}}), in bytes. */
  OptionalLong heapUsed(NodeProcess node) throws IOException, InterruptedException {
    String name = "jvm_memory_used_bytes";
    HttpResponse<String> metrics =
        http.send(
            request(operations(node, "/metrics")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    PrometheusText.Family family = PrometheusText.parse(metrics.body()).get(name);
    return family == null
        ? OptionalLong.empty()
        : family.value(name, Map.of("area", "heap")).stream()
            .mapToLong(Double::longValue)
            .findFirst();
  }

  /** The folder of {@code node}'s ledger and consensus WAL (its FileLedger.Location). */
  Path ledgerDir(NodeProcess node) {
    return spec(node).dataDir().resolve("ledger");
  }

  /** The cluster port the channel config names for {@code node}. */
  int clusterPort(NodeProcess node) {
    return spec(node).clusterPort();
  }

  /** The node with consenter id {@code id}. */
  NodeProcess byConsenterId(long id) {
    for (int i = 0; i < nodes.size(); i++) {
      if (network.nodes().get(i).id() == id) {
        return nodes.get(i);
      }
    }
    throw new IllegalArgumentException("no node has consenter id " + id);
  }

  /**
   * The ConsenterMapping entry of {@code node} as configtxgen writes one: its cluster endpoint, its
   * enrollment certificate and its TLS server certificate (also its client certificate).
   */
  Consenter consenter(NodeProcess node) throws IOException {
    NetworkSummary.Node files = spec(node);
    Path signCert;
    try (var certificates = Files.list(files.mspDir().resolve("signcerts"))) {
      signCert = certificates.findFirst().orElseThrow();
    }
    return new ConsenterSpec(
            files.id(),
            files.host(),
            files.clusterPort(),
            network.ordererMspId(),
            signCert,
            files.tlsCert(),
            files.tlsCert())
        .toConsenter();
  }

  long consenterId(NodeProcess node) {
    return spec(node).id();
  }

  /** TLS connections with {@code tls} (trusting the orderers' TLS CA) to {@code targets}. */
  OrdererChannels connect(List<NodeProcess> targets, ClientTlsFiles tls) throws IOException {
    List<HostPort> endpoints =
        targets.stream().map(n -> new HostPort("localhost", spec(n).broadcastPort())).toList();
    return OrdererChannels.connect(endpoints, tls.clientTls());
  }

  /** The CA of the orderers' TLS server certificates. */
  Path ordererTlsCa() {
    return network.nodes().getFirst().tlsCaCert();
  }

  NetworkSummary network() {
    return network;
  }

  /** {@code osnadmin channel update} sent to {@code node}, as the orderer admin. */
  HttpResponse<String> update(NodeProcess node, Envelope update)
      throws IOException, InterruptedException {
    return admin.update(spec(node).adminPort(), update.toByteArray());
  }

  /** The config of the newest config block {@code node} has ({@code osnadmin channel fetch}). */
  ChannelConfig config(NodeProcess node) throws IOException, InterruptedException {
    return served(node)
        .orElseThrow(() -> new AssertionError(node + " serves no config block of " + CHANNEL));
  }

  /**
   * As {@link #config(NodeProcess)}, empty while {@code node} answers 404: it is onboarding or
   * catching up (orderer/docs/ONBOARDING.md), or has not joined the channel.
   */
  Optional<ChannelConfig> served(NodeProcess node) throws IOException, InterruptedException {
    HttpResponse<byte[]> fetched = admin.fetch(spec(node).adminPort(), CHANNEL, "config");
    if (fetched.statusCode() == 404) {
      return Optional.empty();
    }
    assertThat(fetched.statusCode()).as(node.toString()).isEqualTo(200);
    try {
      return Optional.of(ConfigBlockReader.read(Block.parseFrom(fetched.body())));
    } catch (InvalidConfigException e) {
      throw new AssertionError(node + " serves a config block that is not valid", e);
    }
  }

  /** Envelopes signed by the network's client user (Org1), allowed to write and read. */
  EnvelopeFactory client() {
    return new EnvelopeFactory(
        SigningIdentity.fromMspDirectory(
            network.client().mspDir(), network.clientMspId(), provider),
        Clock.systemUTC());
  }

  /** The orderer org's admin (the orderer admin of osnadmin and of orderer config changes). */
  SigningIdentity ordererAdmin() {
    return SigningIdentity.fromMspDirectory(
        network.ordererAdmin().mspDir(), network.ordererMspId(), provider);
  }

  /** Org1's admin (cryptogen's Admin@ user beside the client user). */
  SigningIdentity clientOrgAdmin() {
    Path users = network.client().mspDir().getParent().getParent();
    return SigningIdentity.fromMspDirectory(
        users.resolve("Admin@" + LocalNetwork.CLIENT_DOMAIN).resolve("msp"),
        network.clientMspId(),
        provider);
  }

  /**
   * Checks each block's consenter signatures against the consenters in force at its height (the
   * blocks before the first one shown are fetched from any node that serves them).
   */
  EpochSignatureCheck signatures() {
    return new EpochSignatureCheck(channel, number -> block(CHANNEL, number));
  }

  /**
   * As {@link #signatures()}, for {@code channelId}, whose genesis block the network's generator
   * wrote beside the first channel's.
   */
  EpochSignatureCheck signatures(String channelId) throws IOException, InvalidConfigException {
    return new EpochSignatureCheck(
        ConfigBlockReader.read(Files.readAllBytes(genesisBlock(channelId))),
        number -> block(channelId, number));
  }

  /** Where the network's generator wrote the genesis block of {@code channelId}. */
  Path genesisBlock(String channelId) {
    return network.genesisBlock().resolveSibling(channelId + ".block");
  }

  /** Block {@code number} from the first node that serves it ({@code osnadmin channel fetch}). */
  private Block block(String channelId, long number) {
    // From the node that served the last block on: a stopped node costs one request's deadline per
    // block asked for, not per block ever asked for.
    int first = blockSource.get();
    for (int i = 0; i < nodes.size(); i++) {
      int index = (first + i) % nodes.size();
      NodeProcess node = nodes.get(index);
      try {
        HttpResponse<byte[]> fetched =
            admin.fetch(spec(node).adminPort(), channelId, Long.toString(number));
        if (fetched.statusCode() == 200) {
          blockSource.set(index);
          return Block.parseFrom(fetched.body());
        }
      } catch (IOException e) {
        LOG.debug("{} does not serve block {}", node, number, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while fetching block " + number, e);
      }
    }
    throw new IllegalStateException("no node serves block " + number);
  }

  int quorum() {
    return channel.consenters().quorums().quorum();
  }

  /**
   * Runs {@code spec} as {@code client} connected with {@code tls} to {@code targets} and asserts
   * that it passed: a quorum acknowledged, everything acknowledged was delivered once, and every
   * block the load's Deliver read carries a quorum of consenter signatures.
   */
  LoadReport load(
      List<NodeProcess> targets, LoadSpec spec, EnvelopeFactory client, ClientTlsFiles tls)
      throws IOException, InterruptedException {
    try (OrdererChannels connections = connect(targets, tls)) {
      LoadReport report =
          new LoadGenerator(
                  spec, client, connections.channels(), tls.certificateHash(), blockSignatures)
              .run();
      assertThat(report.passed()).as(report.format()).isTrue();
      assertThat(report.accepted()).as(report.format()).isPositive();
      return report;
    }
  }

  /**
   * Waits until every node has the height the highest had, reads the chain up to it from each
   * through Deliver as {@code reader} connected with {@code tls}, and checks that all are valid
   * ({@link Chain}) and carry the same headers and data.
   *
   * @return the first node's chain
   */
  Chain identicalChains(EnvelopeFactory reader, ClientTlsFiles tls)
      throws IOException, InterruptedException {
    return identicalChains(nodes, reader, tls);
  }

  /** As {@link #identicalChains(EnvelopeFactory, ClientTlsFiles)}, among {@code among} only. */
  Chain identicalChains(List<NodeProcess> among, EnvelopeFactory reader, ClientTlsFiles tls)
      throws IOException, InterruptedException {
    return identicalChains(CHANNEL, among, reader, tls, signatures());
  }

  /**
   * As {@link #identicalChains(EnvelopeFactory, ClientTlsFiles)}, for {@code channelId}, among
   * {@code among}, each block's signatures checked by {@code signatures}.
   */
  Chain identicalChains(
      String channelId,
      List<NodeProcess> among,
      EnvelopeFactory reader,
      ClientTlsFiles tls,
      EpochSignatureCheck signatures)
      throws IOException, InterruptedException {
    long height = 0;
    for (NodeProcess node : among) {
      height = Math.max(height, height(node, channelId));
    }
    long target = height;
    List<Chain> chains = new ArrayList<>();
    try (OrdererChannels connections = connect(among, tls)) {
      for (int i = 0; i < among.size(); i++) {
        NodeProcess node = among.get(i);
        awaitCondition(
            node + " reaches height " + target + " on " + channelId,
            () -> height(node, channelId) >= target);
        Chain chain =
            Chain.read(
                connections.channels().get(i),
                channelId,
                reader,
                tls.certificateHash(),
                target,
                signatures);
        assertThat(chain.problems()).as(node.toString()).isEmpty();
        chains.add(chain);
      }
    }
    for (Chain chain : chains) {
      assertThat(chain.headers()).isEqualTo(chains.getFirst().headers());
    }
    return chains.getFirst();
  }

  /** A failed test's message with the paths of every node log of {@code cluster}, if any. */
  static TestExecutionExceptionHandler logsOnFailure(Supplier<ProcessCluster> cluster) {
    return (context, thrown) -> {
      ProcessCluster current = cluster.get();
      throw new AssertionError(
          thrown.getMessage() + "\nnode logs:\n" + (current == null ? "none" : current.logs()),
          thrown);
    };
  }

  /** Every node's log, for failure messages. */
  String logs() {
    return String.join("\n", nodes.stream().map(n -> "  " + n.log()).toList());
  }

  /** Kills every node (SIGKILL) that is still running. */
  @Override
  public void close() throws InterruptedException {
    for (NodeProcess node : nodes) {
      node.kill();
    }
  }

  /** Waits until {@code condition} holds, failing with {@code what} after {@link #PATIENCE}. */
  static void awaitCondition(String what, Condition condition) throws InterruptedException {
    awaitCondition(what, PATIENCE, condition);
  }

  /**
   * Waits until {@code condition} holds, failing with {@code what} after {@code limit}; an I/O
   * error or a failed assertion inside it (a node down or restarting) counts as not yet.
   */
  static void awaitCondition(String what, Duration limit, Condition condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    Throwable last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (condition.holds()) {
          return;
        }
      } catch (IOException | RuntimeException | AssertionError e) {
        last = e;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("gave up waiting for: " + what + " after " + limit, last);
  }

  /** A condition checked by polling; it may fail with an I/O error while a node is down. */
  interface Condition {
    boolean holds() throws IOException, InterruptedException;
  }

  private boolean healthy(int operationsPort) throws IOException, InterruptedException {
    return http.send(
                request(URI.create("http://127.0.0.1:" + operationsPort + "/healthz"))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.discarding())
            .statusCode()
        == 200;
  }

  private URI operations(NodeProcess node, String path) {
    return URI.create("http://127.0.0.1:" + spec(node).operationsPort() + path);
  }

  private NetworkSummary.Node spec(NodeProcess node) {
    return network.nodes().get(nodes.indexOf(node));
  }

  /**
   * A request that gives up after {@link #REQUEST_TIMEOUT}: a node stopped with kill -STOP (or one
   * that was, on a connection made before) answers nothing, and a call without a deadline would
   * hold up every check that asks the nodes in turn.
   */
  private static HttpRequest.Builder request(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT);
  }
}
