package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.client.BlockStream;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.configtx.ComputedUpdates;
import io.rubinbft.orderer.configtx.ConfigEdits;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.metrics.MetricsScrape;
import io.rubinbft.orderer.metrics.PrometheusText;
import io.rubinbft.orderer.onboarding.CatchUp;
import io.rubinbft.orderer.onboarding.FollowerChannel;
import io.rubinbft.orderer.onboarding.NodeTls;
import io.rubinbft.orderer.onboarding.PullContext;
import io.rubinbft.orderer.onboarding.PullLimits;
import io.rubinbft.orderer.participation.ChannelInfo;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.testing.DeliverCalls;
import io.rubinbft.orderer.testing.ScriptedDeliver;
import io.rubinbft.orderer.testing.ScriptedDeliver.Lie;
import io.rubinbft.orderer.tools.bootstrap.LocalNetwork;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fifth orderer that is not in the channel's consenter set joins a running 4-node channel with
 * its latest config block ({@code osnadmin channel join --config-block}), as Fabric v3 allows: it
 * onboards (pulls blocks 0..s-1 from the consenters, checks them, anchors them to the join block),
 * becomes an active follower, serves the same blocks through Deliver and keeps following new ones.
 * Lying sources are passed over, and a crash during onboarding resumes from the ledger's height.
 */
class OnboardingNodeTest {

  private static final Duration PATIENCE = Duration.ofMinutes(2);

  /**
   * Transactions before the config update: at most 10 a block, so the update is block 5 or later.
   */
  private static final int BEFORE_UPDATE = 40;

  private static final int AFTER_UPDATE = 10;

  @TempDir Path dir;

  private LocalCluster cluster;
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable resource : opened.reversed()) {
      resource.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aNonConsenterJoinsWithTheLatestConfigBlockServesTheSameChainAndFollows() throws Exception {
    cluster = LocalCluster.generateWithSpare(dir);
    byte[] joinBlock = chainWithConfigUpdate();
    OrdererNode spare = opened(cluster.startSpare());

    HttpResponse<String> joined = cluster.join(spare, joinBlock);
    assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
    assertThat(joined.body())
        .contains("\"consensusRelation\":\"follower\"", "\"status\":\"onboarding\"");

    ChannelInfo info = awaitActive(spare);
    assertThat(info.consensusRelation()).isEqualTo("follower");
    OrdererNode consenter = cluster.nodes.getFirst();
    awaitHeight(follower(spare), LocalCluster.ledger(consenter).height());
    assertThat(headersAndData(deliverAll(spare))).isEqualTo(headersAndData(deliverAll(consenter)));

    cluster.submit(new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC()), 10);
    cluster.awaitTransactions(BEFORE_UPDATE + 1 + AFTER_UPDATE + 10);
    awaitHeight(follower(spare), LocalCluster.ledger(consenter).height());
    assertThat(headersAndData(deliverAll(spare))).isEqualTo(headersAndData(deliverAll(consenter)));
    assertThat(follower(spare).ledger().block(0).orElseThrow().bytes())
        .isEqualTo(LocalCluster.ledger(consenter).block(0).orElseThrow().bytes());

    // A follower serves Deliver to the channel's orderers only; a client finds no channel here, as
    // on Fabric's follower, and gets every block from a consenter.
    assertThat(clientDeliver(spare))
        .isEqualTo(new DeliverCalls.Answer(List.of(), Status.NOT_FOUND));
    assertThat(clientDeliver(consenter).status()).isEqualTo(Status.SUCCESS);

    // A follower orders nothing; it answers Broadcast and config updates as Fabric's does.
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    SubmitOutcome submitted =
        follower(spare)
            .submit(client.transaction(LocalCluster.CHANNEL, new byte[10]).envelope(), "tx");
    assertThat(submitted.status()).isEqualTo(Status.BAD_REQUEST);
    assertThat(submitted.info()).isEqualTo("channel does not exist");
    byte[] update =
        SignedUpdates.signed(
                ConfigUpdateNodeTest.batchSizeUpdate(follower(spare).config().config(), 30),
                List.of(cluster.ordererAdmin()))
            .toByteArray();
    HttpResponse<String> refused = cluster.update(spare, update);
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body().strip())
        .isEqualTo("{\"error\":\"cannot update: channel is not ready, he is a follower\"}");
  }

  /**
   * The orderer endpoints list first a source that is behind (as a removed consenter that follows
   * and lags is): the spare asks every source for its height and pulls from the consenters, which
   * are ahead, never from it, when onboarding and when following; its metrics say so.
   */
  @Test
  void aSourceThatIsBehindIsNotAskedForBlocksWhileOthersAreAhead() throws Exception {
    cluster = LocalCluster.generateWithSpare(dir);
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    cluster.submit(client, AFTER_UPDATE);
    cluster.awaitTransactions(AFTER_UPDATE);
    OrdererNode consenter = cluster.nodes.getFirst();
    List<Block> early = LocalCluster.blocks(consenter);
    NetworkSummary.Node first = cluster.network.nodes().getFirst();
    ScriptedDeliver behind =
        opened(
            ScriptedDeliver.start(
                new HostPort(first.host(), portListedFirst()), tlsOf(first), () -> early));
    String behindEndpoint = first.host() + ":" + behind.address().getPort();
    byte[] joinBlock = endpointsUpdated(behindEndpoint);
    cluster.submit(client, AFTER_UPDATE);
    cluster.awaitTransactions(2 * AFTER_UPDATE + 1);

    OrdererNode spare = opened(cluster.startSpare());
    assertThat(cluster.join(spare, joinBlock).statusCode()).isEqualTo(201);
    awaitActive(spare);
    cluster.submit(client, AFTER_UPDATE);
    cluster.awaitTransactions(3 * AFTER_UPDATE + 1);
    long height = LocalCluster.ledger(consenter).height();
    awaitHeight(follower(spare), height);

    assertThat(headersAndData(deliverAll(spare))).isEqualTo(headersAndData(deliverAll(consenter)));
    assertThat(follower(spare).config().ordererEndpoints().values().iterator().next())
        .first()
        .isEqualTo(behindEndpoint);
    assertThat(behind.probes()).isPositive();
    assertThat(behind.requests()).isZero();
    Map<String, String> channel = Map.of("channel", LocalCluster.CHANNEL);
    long pulledByFollower = height - Block.parseFrom(joinBlock).getHeader().getNumber() - 1;
    Map<String, PrometheusText.Family> metrics =
        MetricsScrape.await(
            spare,
            m ->
                MetricsScrape.value(m, "blockpull_blocks_pulled_total", channel)
                    == pulledByFollower,
            PATIENCE);
    assertThat(MetricsScrape.value(metrics, "blockpull_blocks_pulled_total", channel))
        .isEqualTo((double) pulledByFollower);
    assertThat(MetricsScrape.value(metrics, "ledger_blockchain_height", channel))
        .isEqualTo((double) height);
    assertThat(MetricsScrape.value(metrics, "participation_consensus_relation", channel))
        .isEqualTo(2);
    assertThat(MetricsScrape.value(metrics, "participation_status", channel)).isEqualTo(1);
    assertThat(MetricsScrape.value(metrics, "blockpull_blocks_refused_total", channel)).isZero();
    assertThat(metrics.get("blockpull_source").samples())
        .allSatisfy(
            source -> assertThat(source.labels().get("source")).isNotEqualTo(behindEndpoint));
  }

  @Test
  void liarsAmongTheConsentersArePassedOverWhenOnboardingAndCatchingUp() throws Exception {
    cluster = LocalCluster.generateWithSpare(dir);
    byte[] joinBlock = chainWithConfigUpdate();
    List<Block> chain = LocalCluster.blocks(cluster.nodes.getFirst());
    cluster.stopAll();
    // The consenters' endpoints now serve the chain, three of them lying; asked in port order.
    List<ScriptedDeliver> sources =
        serveInsteadOfConsenters(
            chain, List.of(Lie.FLIP_SIGNATURE, Lie.WRONG_PREVIOUS_HASH, Lie.TRUNCATE));
    OrdererNode spare = opened(cluster.startSpare());

    assertThat(cluster.join(spare, joinBlock).statusCode()).isEqualTo(201);
    awaitActive(spare);
    awaitHeight(follower(spare), chain.size());

    assertThat(LocalCluster.blocksOf(follower(spare).ledger()).subList(0, chain.size()))
        .isEqualTo(chain);
    for (ScriptedDeliver source : sources) {
      assertThat(source.requests()).as("requests to %s", source.address()).isPositive();
    }

    // A consenter that missed the config update catches up by pulling, to the newest config block.
    long configBlock = Block.parseFrom(joinBlock).getHeader().getNumber();
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir.resolve("behind")))) {
      ChannelLedger behind = store.createChannel(LocalCluster.CHANNEL);
      for (Block block : chain.subList(0, 2)) {
        behind.append(block.toByteArray(), Durability.SYNCED);
      }
      try (CatchUp catchUp = new CatchUp(pullContextOfSpare(), behind)) {
        assertThat(catchUp.toNewestConfigBlock()).isEqualTo(configBlock);
      }
      assertThat(LocalCluster.blocksOf(behind)).isEqualTo(chain.subList(0, (int) configBlock + 1));
    }
  }

  @Test
  void aChainMadeUpFromBlockZeroIsDroppedForTheOneTheJoinBlockAnchors() throws Exception {
    // Another network's chain of the same channel name: valid under its own consenters' keys.
    LocalCluster other = opened(LocalCluster.generate(dir.resolve("other")));
    other.startAndJoin();
    other.submit(new EnvelopeFactory(other.clientIdentity(), Clock.systemUTC()), 10);
    List<Block> madeUp = LocalCluster.blocks(other.nodes.getFirst());
    other.stopAll();
    cluster = LocalCluster.generateWithSpare(dir.resolve("real"));
    byte[] joinBlock = chainWithConfigUpdate();
    List<Block> chain = LocalCluster.blocks(cluster.nodes.getFirst());
    assertThat(madeUp.size()).isLessThan((int) Block.parseFrom(joinBlock).getHeader().getNumber());
    cluster.stopAll();
    // The first source serves the made-up chain and claims the highest height, so it is asked
    // first; the others, more than f, refuse to extend it, so the spare drops it, distrusts its
    // source and pulls the real one.
    List<ScriptedDeliver> sources = serveInsteadOfConsenters(chain, List.of());
    sources.getFirst().close();
    NetworkSummary.Node first = cluster.network.nodes().getFirst();
    ScriptedDeliver maker =
        opened(
            ScriptedDeliver.start(
                new HostPort(first.host(), first.broadcastPort()), tlsOf(first), () -> madeUp));
    maker.claim(1_000_000);
    OrdererNode spare = opened(cluster.startSpare());

    assertThat(cluster.join(spare, joinBlock).statusCode()).isEqualTo(201);
    awaitActive(spare);
    awaitHeight(follower(spare), chain.size());

    assertThat(LocalCluster.blocksOf(follower(spare).ledger()).subList(0, chain.size()))
        .isEqualTo(chain);
    assertThat(maker.requests()).isPositive();
  }

  @Test
  void aCrashDuringOnboardingResumesFromTheLedgersHeight() throws Exception {
    Stalled stalled = onboardingStalledAtHeight3();
    stalled.spare().close();
    consentersBack(stalled);

    OrdererNode restarted = opened(cluster.startSpare());
    assertOnboardsTheChain(restarted, stalled.chain());
    assertThat(pendingJoin()).doesNotExist();
  }

  /**
   * {@code osnadmin channel remove} while the channel is still pulling its chain (onboarding
   * stalled in a pull at height 3): the answer is Fabric's 204, the pull ends (no onboarding thread
   * is left), the pending join block and the ledger are deleted, the node stays healthy, and the
   * channel can be joined again (after a restart, which finds nothing to resume).
   */
  @Test
  void aChannelRemovedWhilePullingItsChainIsStoppedDeletedAndCanBeJoinedAgain() throws Exception {
    Stalled stalled = onboardingStalledAtHeight3();
    OrdererNode spare = stalled.spare();
    String onboarding = "onboarding-" + LocalCluster.CHANNEL;
    assertThat(threadsNamed(onboarding)).isOne();
    Path pending = pendingJoin();
    assertThat(pending).exists();

    HttpResponse<String> removed = cluster.remove(spare);
    assertThat(removed.statusCode()).as(removed.body()).isEqualTo(204);
    assertThat(cluster.info(spare).statusCode()).isEqualTo(404);
    assertThat(spare.channels().channelNames()).isEmpty();
    assertThat(threadsNamed(onboarding)).isZero();
    assertThat(pending).doesNotExist();
    assertThat(LocalCluster.healthz(spare, "").statusCode()).isEqualTo(200);
    spare.close();
    Path ledger = cluster.spare().node().dataDir().resolve("ledger");
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(ledger))) {
      assertThat(store.channelNames()).doesNotContain(LocalCluster.CHANNEL);
    }

    consentersBack(stalled);
    OrdererNode again = opened(cluster.startSpare());
    assertThat(again.channels().channelNames()).isEmpty();
    HttpResponse<String> joined = cluster.join(again, stalled.joinBlock().toByteArray());
    assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
    assertOnboardsTheChain(again, stalled.chain());
  }

  /** A spare whose onboarding stalled, the sources it stalled on, what it joined with. */
  private record Stalled(
      OrdererNode spare, List<ScriptedDeliver> sources, ByteString joinBlock, List<Block> chain) {}

  /**
   * The four consenters order {@link #chainWithConfigUpdate} and stop; in their place every source
   * serves blocks 0..2 and then falls silent, and the spare joined with the latest config block
   * stalls at height 3, in a pull.
   */
  private Stalled onboardingStalledAtHeight3() throws Exception {
    cluster = LocalCluster.generateWithSpare(dir);
    byte[] joinBlock = chainWithConfigUpdate();
    List<Block> chain = LocalCluster.blocks(cluster.nodes.getFirst());
    cluster.stopAll();
    List<ScriptedDeliver> stalling = serveInsteadOfConsenters(chain, List.of());
    stalling.forEach(source -> source.lie(Lie.HANG, 3));
    OrdererNode spare = cluster.startSpare();
    assertThat(cluster.join(spare, joinBlock).statusCode()).isEqualTo(201);
    awaitInfoHeight(spare, 3);
    return new Stalled(spare, stalling, ByteString.copyFrom(joinBlock), chain);
  }

  /** Where the spare keeps the join block of an onboarding in progress. */
  private Path pendingJoin() {
    return cluster
        .spare()
        .node()
        .dataDir()
        .resolve("ledger/pendingops/join/" + LocalCluster.CHANNEL + ".join");
  }

  /** The silent sources go and the consenters come back. */
  private void consentersBack(Stalled stalled) throws Exception {
    for (ScriptedDeliver source : stalled.sources()) {
      source.close();
    }
    cluster.startAll();
  }

  /** The node onboards to an active follower holding {@code chain} from block 0. */
  private static void assertOnboardsTheChain(OrdererNode node, List<Block> chain)
      throws InterruptedException {
    awaitActive(node);
    awaitHeight(follower(node), chain.size());
    assertThat(LocalCluster.blocksOf(follower(node).ledger()).subList(0, chain.size()))
        .isEqualTo(chain);
  }

  /**
   * Starts the four consenters, orders 20 transactions, a BatchSize update (through {@code osnadmin
   * channel update}) and 10 more; returns the latest config block as {@code osnadmin channel fetch
   * config} gets it.
   */
  private byte[] chainWithConfigUpdate() throws Exception {
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    cluster.submit(client, BEFORE_UPDATE);
    ChannelRuntime runtime =
        cluster.nodes.getFirst().channels().runtime(LocalCluster.CHANNEL).orElseThrow();
    HttpResponse<String> updated =
        cluster.update(
            cluster.nodes.getFirst(),
            SignedUpdates.signed(
                    ConfigUpdateNodeTest.batchSizeUpdate(runtime.config().config(), 20),
                    List.of(cluster.ordererAdmin()))
                .toByteArray());
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(201);
    cluster.submit(client, AFTER_UPDATE);
    cluster.awaitTransactions(BEFORE_UPDATE + 1 + AFTER_UPDATE);
    HttpResponse<byte[]> config = cluster.fetch(cluster.nodes.getFirst(), "config");
    assertThat(config.statusCode()).isEqualTo(200);
    assertThat(Block.parseFrom(config.body()).getHeader().getNumber()).isPositive();
    return config.body();
  }

  /**
   * The orderer org's endpoints with {@code listedFirst} put first, by a config update through
   * {@code osnadmin channel update}; returns the config block it made.
   */
  private byte[] endpointsUpdated(String listedFirst) throws Exception {
    Config config = cluster.config();
    String org = LocalNetwork.ORDERER_ORG;
    List<String> endpoints = new ArrayList<>();
    endpoints.add(listedFirst);
    endpoints.addAll(
        cluster
            .nodes
            .getFirst()
            .channels()
            .runtime(LocalCluster.CHANNEL)
            .orElseThrow()
            .config()
            .ordererEndpoints()
            .get(org));
    Envelope update =
        SignedUpdates.signed(
            ComputedUpdates.compute(
                LocalCluster.CHANNEL, config, ConfigEdits.ordererEndpoints(config, org, endpoints)),
            List.of(cluster.ordererAdmin()));
    HttpResponse<String> updated = cluster.update(cluster.nodes.getFirst(), update.toByteArray());
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(201);
    cluster.awaitConfigSequence(config.getSequence() + 1);
    HttpResponse<byte[]> fetched = cluster.fetch(cluster.nodes.getFirst(), "config");
    assertThat(fetched.statusCode()).isEqualTo(200);
    return fetched.body();
  }

  /**
   * A free loopback port whose endpoint sorts before every consenter's: the puller used to ask
   * endpoints in that order. Cluster ports are picked from 10000 on ({@code FreePorts}).
   */
  private int portListedFirst() throws IOException {
    int lowestConsenter =
        cluster.network.nodes().stream()
            .mapToInt(NetworkSummary.Node::broadcastPort)
            .min()
            .orElseThrow();
    for (int port = 10_000; port < lowestConsenter; port++) {
      try (ServerSocket _ = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException e) {
        // taken: the next one
      }
    }
    throw new IOException("no free port below " + lowestConsenter);
  }

  /**
   * Deliver services on the consenters' endpoints, with their TLS key pairs, serving {@code chain}:
   * the i-th in port order lies {@code lies.get(i)} from block i+1 on, the rest are honest.
   */
  private List<ScriptedDeliver> serveInsteadOfConsenters(List<Block> chain, List<Lie> lies)
      throws Exception {
    List<ScriptedDeliver> sources = new ArrayList<>();
    List<NetworkSummary.Node> nodes = cluster.network.nodes();
    for (int i = 0; i < nodes.size(); i++) {
      NetworkSummary.Node node = nodes.get(i);
      ScriptedDeliver source =
          opened(
              ScriptedDeliver.start(
                  new HostPort(node.host(), node.broadcastPort()), tlsOf(node), () -> chain));
      if (i < lies.size()) {
        source.lie(lies.get(i), i + 1L);
      }
      sources.add(source);
    }
    return sources;
  }

  /** A node's TLS listener settings: its key pair, trusting its organization's TLS CA. */
  private static TlsSettings tlsOf(NetworkSummary.Node node) {
    return new TlsSettings(
        true, node.tlsCert(), node.tlsKey(), List.of(node.tlsCaCert()), false, List.of());
  }

  /** What the spare orderer pulls with: its identity and TLS key pair. */
  private PullContext pullContextOfSpare() {
    NetworkSummary.Node node = cluster.spare().node();
    CryptoProvider provider = CryptoProvider.preferNative();
    TlsSettings tls = tlsOf(node);
    return new PullContext(
        SigningIdentity.fromMspDirectory(node.mspDir(), cluster.network.ordererMspId(), provider),
        provider,
        Clock.systemUTC(),
        Optional.of(NodeTls.of(tls, new Sha256(provider))),
        Optional.empty(),
        PullLimits.defaults());
  }

  /** How many live platform threads are named {@code name}. */
  private static long threadsNamed(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().equals(name))
        .count();
  }

  private static ChannelInfo awaitActive(OrdererNode node) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    Optional<ChannelInfo> info = node.channels().info(LocalCluster.CHANNEL);
    while (!info.orElseThrow().status().equals("active") && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(100);
      info = node.channels().info(LocalCluster.CHANNEL);
    }
    assertThat(info.orElseThrow().status()).isEqualTo("active");
    return info.get();
  }

  private static void awaitInfoHeight(OrdererNode node, long height) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (node.channels().info(LocalCluster.CHANNEL).orElseThrow().height() < height
        && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(50);
    }
    assertThat(node.channels().info(LocalCluster.CHANNEL).orElseThrow().height()).isEqualTo(height);
  }

  private static void awaitHeight(FollowerChannel follower, long height)
      throws InterruptedException {
    assertThat(follower.ledger().awaitHeight(height, PATIENCE)).isTrue();
  }

  private static FollowerChannel follower(OrdererNode node) {
    return node.channels().follower(LocalCluster.CHANNEL).orElseThrow();
  }

  /**
   * Every block of the node's chain as its Deliver service answers: a client of the channel on a
   * consenter, the orderer admin on a follower (which serves only the channel's orderers).
   */
  private List<Block> deliverAll(OrdererNode node) throws Exception {
    ChannelLedger ledger = node.channels().channel(LocalCluster.CHANNEL).orElseThrow().ledger();
    EnvelopeFactory reader =
        new EnvelopeFactory(
            node.channels().follower(LocalCluster.CHANNEL).isPresent()
                ? cluster.ordererAdmin()
                : cluster.clientIdentity(),
            Clock.systemUTC());
    try (OrdererChannels connection = connect(node)) {
      long last = ledger.height() - 1;
      return BlockStream.readAll(
          connection.channels().getFirst(),
          reader.seek(LocalCluster.CHANNEL, SeekInfos.range(0, last), ByteString.EMPTY),
          (int) last + 1,
          PATIENCE,
          "the chain of " + node.grpcAddress());
    }
  }

  /** What the node's Deliver answers a client of the channel asking for block 0. */
  private DeliverCalls.Answer clientDeliver(OrdererNode node) throws Exception {
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    try (OrdererChannels connection = connect(node)) {
      return DeliverCalls.request(
          connection.channels().getFirst(),
          client.seek(LocalCluster.CHANNEL, SeekInfos.range(0, 0), ByteString.EMPTY),
          PATIENCE);
    }
  }

  private OrdererChannels connect(OrdererNode node) throws Exception {
    NetworkSummary.Node first = cluster.network.nodes().getFirst();
    return OrdererChannels.connect(
        List.of(new HostPort("localhost", node.grpcAddress().getPort())),
        new OrdererChannels.ClientTls(
            Optional.of(first.tlsCaCert()), Optional.empty(), Optional.empty()));
  }

  /**
   * The blocks without their metadata: each replica signs its own copy, so the quorum of signatures
   * on a block may differ with the consenter it was pulled from.
   */
  private static List<Block> headersAndData(List<Block> blocks) {
    return blocks.stream().map(block -> block.toBuilder().clearMetadata().build()).toList();
  }

  private <T extends AutoCloseable> T opened(T resource) {
    opened.add(resource);
    return resource;
  }
}
