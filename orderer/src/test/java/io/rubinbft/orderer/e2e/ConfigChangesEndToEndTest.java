package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.configtx.ComputedUpdates;
import io.rubinbft.orderer.configtx.ConfigEdits;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.ApplicationOrg;
import io.rubinbft.orderer.testing.ClientCalls;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.FollowingDeliver;
import io.rubinbft.orderer.tools.bootstrap.SignaturePolicies;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.MSPRole.MSPRoleType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.peer.AnchorPeer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel on four orderer processes goes through config changes of every kind an operator makes,
 * each while the first org's transactions flow, each computed as {@code configtxlator
 * compute_update} computes it, signed by the admins its mod_policies name, and sent either through
 * Broadcast or with {@code osnadmin channel update} to a different node each time: BatchSize, the
 * batch timeout, a new application org (which then connects with mutual TLS and transacts, no node
 * restarted), a narrower Writers policy for it, the orderer endpoints, an anchor peer, and the
 * removal of the new org (FORBIDDEN on its next Broadcast and Deliver on every node, its open
 * Deliver stream ended at the config block, its new connections refused). At the end every node's
 * chain, read through Deliver, is valid (hash chain, quorum signatures, last config indexes) and
 * the same, and each config block carries the submitted update byte for byte.
 */
@Tag("multiprocess")
class ConfigChangesEndToEndTest {

  private static final Logger LOG = LoggerFactory.getLogger(ConfigChangesEndToEndTest.class);
  @RegisterExtension static final ProcessClusters CLUSTERS = new ProcessClusters();
  private static final int INITIAL_MAX_MESSAGE_COUNT = 50;
  private static final int NEW_MAX_MESSAGE_COUNT = 5;

  private ProcessCluster cluster;
  private ClientTlsFiles org1Tls;
  private EnvelopeFactory org1User;
  private ApplicationOrg org2;
  private ClientTlsFiles org2Tls;
  private OrdererChannels org2Connections;
  private FollowingDeliver org2Following;
  private Workload workload;

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      ProcessCluster.logsOnFailure(() -> cluster);

  /**
   * A run's size.
   *
   * @param transactions per load: one load runs across each config change, and one after it
   * @param payloadBytes random payload per transaction
   * @param everyChange whether the run makes every change, or only the essential ones
   */
  private record Workload(int transactions, int payloadBytes, boolean everyChange) {}

  /** How a config update reaches the orderers. */
  private enum Submission {
    BROADCAST,
    OSNADMIN
  }

  /** What must hold once every node committed a change's config block. */
  @FunctionalInterface
  private interface Effect {
    void check(long configBlock) throws Exception;
  }

  /**
   * One config change.
   *
   * @param what for logs and failure messages
   * @param edit the change to the decoded config
   * @param signers admins whose signatures satisfy the mod_policies of what changes
   * @param via how the update is submitted
   * @param node the index of the node it is sent to
   * @param effect what the change must have done
   * @param essential whether the shorter default run makes it too
   */
  private record Change(
      String what,
      UnaryOperator<Config> edit,
      List<SigningIdentity> signers,
      Submission via,
      int node,
      Effect effect,
      boolean essential) {}

  @AfterEach
  void closeOrg2Connections() {
    if (org2Connections != null) {
      org2Connections.close();
    }
  }

  @Test
  void fiveConfigChangesTakeEffectWhileTransactionsFlow() throws Exception {
    run(new Workload(40, 300, false));
  }

  @Test
  @Tag("long")
  void sevenConfigChangesTakeEffectUnderLargerLoad() throws Exception {
    run(new Workload(1_000, 2_800, true));
  }

  private void run(Workload size) throws Exception {
    workload = size;
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    Path clusterDir = Files.createTempDirectory(dir, "config-");
    cluster = CLUSTERS.track(ProcessCluster.create(clusterDir, INITIAL_MAX_MESSAGE_COUNT, true));
    org1User = cluster.client();
    org1Tls =
        ClientTlsFiles.mutual(
            cluster.ordererTlsCa(), cluster.network().client().tlsCert().getParent());
    org2 = ApplicationOrg.generate(clusterDir.resolve("org2"), "Org2", "org2.example.com");
    org2Tls = ClientTlsFiles.mutual(cluster.ordererTlsCa(), org2.userTls());
    cluster.start(cluster.nodes());
    cluster.joinAll();
    LOG.info("4 nodes started and joined, mutual TLS on Broadcast/Deliver");
    assertThat(connectsToEveryNode(org2Tls)).as("Org2 before it is added").isFalse();

    List<Envelope> submitted = new ArrayList<>();
    List<Long> configBlocks = new ArrayList<>();
    List<Change> changes =
        changes().stream().filter(c -> workload.everyChange() || c.essential()).toList();
    for (Change change : changes) {
      LOG.info("config change: {}", change.what());
      Envelope update = applyWhileTransactionsFlow(change);
      long block = awaitConfigSequence(submitted.size() + 1);
      submitted.add(update);
      configBlocks.add(block);
      change.effect().check(block);
      LOG.info("config change took effect at block {}: {}", block, change.what());
    }
    load(org1User, org1Tls);

    Chain chain = cluster.identicalChains(org1User, org1Tls);
    assertThat(chain.configUpdates().keySet()).containsExactlyElementsOf(configBlocks);
    assertThat(List.copyOf(chain.configUpdates().values()))
        .containsExactlyElementsOf(submitted.stream().map(Envelope::toByteString).toList());
    long batchSizeBlock = configBlocks.getFirst();
    List<Integer> counts = chain.envelopeCounts();
    assertThat(counts.subList((int) batchSizeBlock + 1, counts.size()))
        .allMatch(count -> count <= NEW_MAX_MESSAGE_COUNT);
    assertThat(chain.txIdCounts().values()).allMatch(count -> count == 1, "every tx id once");
  }

  /**
   * The changes in order. Consenter changes are {@link ConsenterSetEndToEndTest}'s (the chain
   * checks follow the consenter set of each config block).
   */
  private List<Change> changes() throws Exception {
    SigningIdentity ordererAdmin = cluster.ordererAdmin();
    SigningIdentity org1Admin = cluster.clientOrgAdmin();
    List<String> endpoints = new ArrayList<>(currentConfig().ordererEndpoints().get("OrdererOrg"));
    List<String> reordered = endpoints.reversed();
    AnchorPeer anchor = AnchorPeer.newBuilder().setHost("127.0.0.1").setPort(7051).build();
    return List.of(
        new Change(
            "BatchSize.MaxMessageCount "
                + INITIAL_MAX_MESSAGE_COUNT
                + " -> "
                + NEW_MAX_MESSAGE_COUNT,
            config -> ConfigEdits.maxMessageCount(config, NEW_MAX_MESSAGE_COUNT),
            List.of(ordererAdmin),
            Submission.BROADCAST,
            0,
            block ->
                expectEveryNode(c -> c.batchLimits().maxMessageCount() == NEW_MAX_MESSAGE_COUNT),
            true),
        new Change(
            "BatchTimeout 2s -> 1s",
            config -> ConfigEdits.batchTimeout(config, Duration.ofSeconds(1)),
            List.of(ordererAdmin),
            Submission.OSNADMIN,
            1,
            block -> expectEveryNode(c -> c.batchTimeout().equals(Duration.ofSeconds(1))),
            false),
        new Change(
            "application org Org2 added",
            config -> ConfigEdits.withApplicationOrg(config, org2.name(), org2.group()),
            List.of(org1Admin),
            Submission.BROADCAST,
            2,
            block -> org2ConnectsAndTransacts(),
            true),
        new Change(
            "Org2's Writers narrowed to its admins",
            config -> ConfigEdits.orgPolicy(config, org2.name(), "Writers", adminsOnly(org2)),
            List.of(org2.admin()),
            Submission.OSNADMIN,
            3,
            block -> org2UsersReadButWriteNoMore(),
            true),
        new Change(
            "OrdererOrg endpoints reordered",
            config -> ConfigEdits.ordererEndpoints(config, "OrdererOrg", reordered),
            List.of(ordererAdmin),
            Submission.BROADCAST,
            0,
            block -> expectEveryNode(c -> c.ordererEndpoints().get("OrdererOrg").equals(reordered)),
            true),
        new Change(
            "Org1 anchor peer set",
            config -> ConfigEdits.anchorPeers(config, "Org1", List.of(anchor)),
            List.of(org1Admin),
            Submission.OSNADMIN,
            1,
            block -> expectEveryNode(c -> org1Group(c).containsValues("AnchorPeers")),
            false),
        new Change(
            "application org Org2 removed",
            config -> ConfigEdits.withoutApplicationOrg(config, org2.name()),
            List.of(org1Admin, org2.admin()),
            Submission.OSNADMIN,
            2,
            this::org2IsForbiddenFrom,
            true));
  }

  /**
   * Starts a load, submits the change once blocks are being cut, and waits for the load to pass.
   *
   * @return the submitted update
   */
  private Envelope applyWhileTransactionsFlow(Change change) throws Exception {
    NodeProcess target = cluster.node(change.node());
    long start = cluster.height(target);
    FutureTask<Void> flowing =
        new FutureTask<>(
            () -> {
              load(org1User, org1Tls);
              return null;
            });
    Thread.ofVirtual().start(flowing);
    ProcessCluster.awaitCondition(
        "a block ordered under load", () -> cluster.height(target) > start || flowing.isDone());
    Config current = currentConfig().config();
    Envelope update =
        SignedUpdates.signed(
            ComputedUpdates.compute(ProcessCluster.CHANNEL, current, change.edit().apply(current)),
            change.signers());
    if (change.via() == Submission.BROADCAST) {
      try (OrdererChannels connections = cluster.connect(List.of(target), org1Tls)) {
        assertThat(ClientCalls.broadcast(connections.channels().getFirst(), update).getStatus())
            .as(change.what())
            .isEqualTo(Status.SUCCESS);
      }
    } else {
      HttpResponse<String> answer = cluster.update(target, update);
      assertThat(answer.statusCode()).as(change.what() + ": " + answer.body()).isEqualTo(201);
    }
    flowing.get(10, TimeUnit.MINUTES);
    return update;
  }

  /** Waits until every node's newest config block has {@code sequence}; returns its number. */
  private long awaitConfigSequence(long sequence) throws Exception {
    for (NodeProcess node : cluster.nodes()) {
      ProcessCluster.awaitCondition(
          node + " at config sequence " + sequence,
          () -> cluster.config(node).sequence() >= sequence);
    }
    ChannelConfig config = currentConfig();
    assertThat(config.sequence()).isEqualTo(sequence);
    return config.blockNumber();
  }

  private void expectEveryNode(Predicate<ChannelConfig> holds) throws Exception {
    for (NodeProcess node : cluster.nodes()) {
      assertThat(holds.test(cluster.config(node))).as(node.toString()).isTrue();
    }
  }

  /** Org2 connects with its own TLS certificate, transacts, and follows the chain. */
  private void org2ConnectsAndTransacts() throws Exception {
    assertThat(connectsToEveryNode(org2Tls)).as("Org2 once added").isTrue();
    load(new EnvelopeFactory(org2.user(), Clock.systemUTC()), org2Tls);
    org2Connections = cluster.connect(cluster.nodes(), org2Tls);
    for (ManagedChannel node : org2Connections.channels()) {
      assertThat(
              ClientCalls.deliverNewest(
                  node, org2User(), ProcessCluster.CHANNEL, org2Tls.certificateHash()))
          .isEqualTo(Status.SUCCESS);
    }
    org2Following =
        FollowingDeliver.open(
            org2Connections.channels().get(3),
            org2User(),
            ProcessCluster.CHANNEL,
            org2Tls.certificateHash(),
            Duration.ofMinutes(10));
  }

  /** Org2's users are refused by Broadcast and still read; its admin still writes. */
  private void org2UsersReadButWriteNoMore() throws Exception {
    for (ManagedChannel node : org2Connections.channels()) {
      Envelope transaction =
          org2User().transaction(ProcessCluster.CHANNEL, new byte[100]).envelope();
      assertThat(ClientCalls.broadcast(node, transaction).getStatus()).isEqualTo(Status.FORBIDDEN);
      assertThat(
              ClientCalls.deliverNewest(
                  node, org2User(), ProcessCluster.CHANNEL, org2Tls.certificateHash()))
          .isEqualTo(Status.SUCCESS);
    }
    load(new EnvelopeFactory(org2.admin(), Clock.systemUTC()), org2Tls);
  }

  /**
   * Org2's open Deliver stream ended with FORBIDDEN instead of the config block that removed it;
   * its next Broadcast and Deliver on open connections are FORBIDDEN on every node; new connections
   * fail in the TLS handshake.
   */
  private void org2IsForbiddenFrom(long removalBlock) throws Exception {
    assertThat(org2Following.end(ProcessCluster.PATIENCE)).isEqualTo(Status.FORBIDDEN);
    // Judged by the current config, as in Fabric: a stream that lagged may be cut before it.
    assertThat(org2Following.received()).isNotEmpty().allMatch(number -> number < removalBlock);
    EnvelopeFactory admin = new EnvelopeFactory(org2.admin(), Clock.systemUTC());
    for (ManagedChannel node : org2Connections.channels()) {
      Envelope transaction = admin.transaction(ProcessCluster.CHANNEL, new byte[100]).envelope();
      assertThat(ClientCalls.broadcast(node, transaction).getStatus()).isEqualTo(Status.FORBIDDEN);
      assertThat(
              ClientCalls.deliverNewest(
                  node, org2User(), ProcessCluster.CHANNEL, org2Tls.certificateHash()))
          .isEqualTo(Status.FORBIDDEN);
    }
    assertThat(connectsToEveryNode(org2Tls)).as("Org2 once removed").isFalse();
  }

  private void load(EnvelopeFactory client, ClientTlsFiles tls) throws Exception {
    LoadSpec spec =
        new LoadSpec(
            ProcessCluster.CHANNEL,
            workload.transactions(),
            workload.payloadBytes(),
            4,
            cluster.quorum(),
            OptionalDouble.empty(),
            Duration.ofMinutes(2));
    cluster.load(cluster.nodes(), spec, client, tls);
  }

  private boolean connectsToEveryNode(ClientTlsFiles tls) throws Exception {
    try (OrdererChannels connections = cluster.connect(cluster.nodes(), tls)) {
      return connections.channels().stream().allMatch(ClientCalls::answers);
    }
  }

  private ChannelConfig currentConfig() throws Exception {
    return cluster.config(cluster.node(0));
  }

  private EnvelopeFactory org2User() {
    return new EnvelopeFactory(org2.user(), Clock.systemUTC());
  }

  private static ConfigPolicy adminsOnly(ApplicationOrg org) {
    return ConfigPolicy.newBuilder()
        .setModPolicy("Admins")
        .setPolicy(
            SignaturePolicies.signature(
                SignaturePolicies.anyOf(org.mspId(), List.of(MSPRoleType.ADMIN))))
        .build();
  }

  private static ConfigGroup org1Group(ChannelConfig config) {
    return config
        .config()
        .getChannelGroup()
        .getGroupsOrThrow("Application")
        .getGroupsOrThrow("Org1");
  }
}
