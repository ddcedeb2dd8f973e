package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.service.Streams;
import io.rubinbft.orderer.testing.ConsenterUpdates;
import io.rubinbft.orderer.testing.EpochSignatureCheck;
import io.rubinbft.orderer.tools.bootstrap.Renewals;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consenter reconfiguration on a running cluster made by our bootstrap with five consenters, while
 * transactions flow: a consenter is removed (5 -> 4), one's enrollment certificate is renewed with
 * the same key, and the current leader is removed (4 -> 3). Each change is ordered by the old set
 * and switches every member to a new consensus epoch at its block; a removed node follows the
 * channel (it serves its ledger and refuses Broadcast). Every ledger is one chain whose blocks
 * carry quorum signatures of the consenters in force at their height, no transaction is lost or
 * ordered twice, and after a restart of every node each resumes in its epoch and ordering goes on.
 * A consenter that was down during a reconfiguration comes back in the old epoch and catches up by
 * pulling the blocks up to the config block that started the new one.
 */
class ReconfigurationNodeTest {

  private static final Duration AWAIT = Duration.ofMinutes(2);
  private static final int LOAD = 40;

  @TempDir Path dir;

  private LocalCluster cluster;
  private int ordered;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void consentersAreRemovedRenewedAndAddedUnderLoadAndRestartsResumeInTheirEpochs()
      throws Exception {
    cluster = LocalCluster.generate(dir, 5);
    cluster.startAndJoin();
    Set<Integer> members = new HashSet<>(List.of(0, 1, 2, 3, 4));
    Consenter fifth = consenterOf(config(members), 5);

    long removal = reconfigure(members, without(5), nodeOf(5));
    members.remove(nodeOf(5));
    assertEpochs(members, removal);
    assertFollower(nodeOf(5));

    X509Certificate old = identityOf(config(members), 3);
    ByteString renewed =
        ByteString.copyFrom(
            Renewals.renewedPem(
                Renewals.organizationOf(cluster.network.nodes().get(nodeOf(3)).mspDir()), old));
    long renewal = reconfigure(members, renewedIdentity(3, renewed), -1);
    assertEpochs(members, renewal);
    assertThat(identityOf(config(members), 3)).isNotEqualTo(old);

    // The removed node followed the channel meanwhile (pulling its blocks); added back, it orders.
    long addition = reconfigure(members, with(fifth), -1);
    members.add(nodeOf(5));
    assertEpochs(members, addition);

    long leader = host(members.iterator().next()).leaderId();
    long leaderRemoval = reconfigure(members, without(leader), nodeOf(leader));
    members.remove(nodeOf(leader));
    assertEpochs(members, leaderRemoval);
    assertFollower(nodeOf(leader));
    assertLedgers(members);

    cluster.stopAll();
    cluster.startAll();
    assertEpochs(members, leaderRemoval);
    assertFollower(nodeOf(leader));
    submit(members, 20, -1);
    ordered += 20;
    assertEpochs(members, leaderRemoval);
    assertLedgers(members);
  }

  /**
   * Several consenters changed by one config update, which Fabric's BFT orderer allows: a follower
   * (removed before) comes back and another consenter leaves in the same update (5 -> 4 -> 4 with
   * two changes). The members that stay and the returning follower order in the new epoch, the
   * leaving one follows.
   */
  @Test
  void severalConsentersChangeInOneUpdate() throws Exception {
    cluster = LocalCluster.generate(dir, 5);
    cluster.startAndJoin();
    Set<Integer> members = new HashSet<>(List.of(0, 1, 2, 3, 4));
    Consenter fifth = consenterOf(config(members), 5);
    long removal = reconfigure(members, without(5), nodeOf(5));
    members.remove(nodeOf(5));
    assertEpochs(members, removal);

    long swap =
        reconfigure(
            members, consenters -> with(fifth).apply(without(4).apply(consenters)), nodeOf(4));
    members.remove(nodeOf(4));
    members.add(nodeOf(5));
    assertEpochs(members, swap);
    assertFollower(nodeOf(4));
    submit(members, 20, -1);
    ordered += 20;
    assertEpochs(members, swap);
    assertLedgers(members);
  }

  @Test
  void aConsenterThatWasDownDuringAReconfigurationCatchesUpByPullingBlocks() throws Exception {
    cluster = LocalCluster.generate(dir, 4);
    cluster.startAndJoin();
    Set<Integer> members = new HashSet<>(List.of(0, 1, 2, 3));
    submit(members, 10, -1);
    ordered += 10;
    LocalCluster.awaitTransactions(ordered, nodes(members));

    cluster.stop(3);
    Set<Integer> running = new HashSet<>(List.of(0, 1, 2));
    X509Certificate old = identityOf(config(running), 2);
    ByteString renewed =
        ByteString.copyFrom(
            Renewals.renewedPem(
                Renewals.organizationOf(cluster.network.nodes().get(nodeOf(2)).mspDir()), old));
    long renewal = reconfigure(running, renewedIdentity(2, renewed), -1);
    assertEpochs(running, renewal);
    // Restarted, the others no longer hold the old epoch's messages they queued for node 3.
    for (int node : running) {
      cluster.stop(node);
      cluster.restart(node);
    }
    assertEpochs(running, renewal);

    // Back up in the old epoch: told of the new one, it pulls the blocks up to its config block.
    cluster.restart(3);
    assertEpochs(members, renewal);
    submit(members, 20, -1);
    ordered += 20;
    assertEpochs(members, renewal);
    assertLedgers(members);
  }

  /**
   * bft-core README's "Stalled behind an epoch end" on a running cluster: node 3 is down while the
   * others remove node 2 (4 -> 3 consenters), so the only correct orderers holding that epoch end
   * are the members that stay (0 and 1), which then go down too, and node 2, which now follows the
   * channel and runs no replica. Node 3 comes back in the old epoch; no member of the new epoch
   * sends it a frame, and it cannot form a view-change quorum of the old one. Once its view change
   * has not installed for the view-change timeout, it pulls the blocks from the orderers of its
   * config (the removed node 2 answers, 0 and 1 are silent) up to the config block, each checked,
   * and starts the new epoch's replica. When 0 and 1 come back, the new epoch orders.
   */
  @Test
  void aMemberStalledBehindAnEpochEndOnlyARemovedNodeExecutedPullsItWhenItsViewChangeTimesOut()
      throws Exception {
    cluster = LocalCluster.generate(dir, 4);
    cluster.startAndJoin();
    Set<Integer> members = new HashSet<>(List.of(0, 1, 2, 3));
    submit(members, 10, -1);
    ordered += 10;
    LocalCluster.awaitTransactions(ordered, nodes(members));

    cluster.stop(3);
    long removed = cluster.network.nodes().get(2).id();
    long removal = reconfigure(Set.of(0, 1, 2), without(removed), 2);
    assertEpochs(Set.of(0, 1), removal);
    assertFollower(2);
    cluster.stop(0);
    cluster.stop(1);

    cluster.restart(3);
    // A request makes the old epoch's replica suspect its primary (down) and change views.
    Envelope tx =
        new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC())
            .transaction(LocalCluster.CHANNEL, new byte[100])
            .envelope();
    assertThat(broadcast(cluster.nodes.get(3), tx).getStatus()).isEqualTo(Status.SUCCESS);
    await(
        () -> runtimeIn(3, removal),
        "node 3 pulled the epoch end from the removed node and runs epoch " + removal);

    cluster.restart(0);
    cluster.restart(1);
    Set<Integer> kept = Set.of(0, 1, 3);
    for (int member : kept) {
      await(() -> runtimeIn(member, removal), "node " + member + " runs epoch " + removal);
    }
    cluster.submit(
        new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC()), 20, nodes(kept));
    for (int member : kept) {
      await(
          () ->
              LocalCluster.ledger(cluster.nodes.get(member)).height()
                  == LocalCluster.ledger(cluster.nodes.get(0)).height(),
          "node " + member + " holds every block node 0 holds");
    }
    assertLedgers(kept);
  }

  private boolean runtimeIn(int node, long epoch) {
    return cluster
        .nodes
        .get(node)
        .channels()
        .runtime(LocalCluster.CHANNEL)
        .flatMap(ChannelRuntime::host)
        .map(h -> h.member() && h.epoch().epoch() == epoch)
        .orElse(false);
  }

  /**
   * Sends the consenter change through {@code osnadmin channel update} to a member while a load
   * runs, and waits until the members that stay ordered it.
   *
   * @param leaving the node the change removes, or -1: the load's Deliver stream avoids it, its
   *     Broadcast answers BAD_REQUEST once it follows
   * @return the config block's number: the new epoch
   */
  private long reconfigure(Set<Integer> members, UnaryOperator<List<Consenter>> change, int leaving)
      throws Exception {
    Config current = config(members);
    Envelope update =
        SignedUpdates.signed(
            ConsenterUpdates.update(LocalCluster.CHANNEL, current, change),
            List.of(cluster.ordererAdmin()));
    CompletableFuture<Void> flowing = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                submit(members, LOAD, leaving);
                flowing.complete(null);
              } catch (Exception | AssertionError e) {
                flowing.completeExceptionally(e);
              }
            });
    List<OrdererNode> staying = nodes(members, leaving);
    HttpResponse<String> answer = cluster.update(staying.getFirst(), update.toByteArray());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
    flowing.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
    ordered += LOAD + 1;
    if (leaving >= 0) {
      staying = staying.subList(0, staying.size() - 1);
    }
    LocalCluster.awaitTransactions(ordered, staying);
    ChannelRuntime first =
        staying.getFirst().channels().runtime(LocalCluster.CHANNEL).orElseThrow();
    await(() -> first.config().sequence() > current.getSequence(), "config block executed");
    return first.config().blockNumber();
  }

  private void submit(Set<Integer> members, int count, int last) throws Exception {
    cluster.submit(
        new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC()),
        count,
        nodes(members, last));
  }

  /** The index in the cluster of the node with consenter id {@code id}. */
  private int nodeOf(long id) {
    for (int i = 0; i < cluster.network.nodes().size(); i++) {
      if (cluster.network.nodes().get(i).id() == id) {
        return i;
      }
    }
    throw new IllegalArgumentException("no node with consenter id " + id);
  }

  /** Every member ordered what was submitted and runs epoch {@code epoch}. */
  private void assertEpochs(Set<Integer> members, long epoch) throws InterruptedException {
    LocalCluster.awaitTransactions(ordered, nodes(members));
    for (int member : members) {
      await(
          // A follower added back serves the channel through a runtime only once it switched.
          () ->
              cluster
                  .nodes
                  .get(member)
                  .channels()
                  .runtime(LocalCluster.CHANNEL)
                  .flatMap(ChannelRuntime::host)
                  .map(h -> h.member() && h.epoch().epoch() == epoch)
                  .orElse(false),
          "node " + member + " runs epoch " + epoch + "\n" + cluster.describeNodes());
    }
  }

  /**
   * A removed node follows: relation "follower", Broadcast refused as Fabric's follower refuses it
   * (400 "channel does not exist"), its ledger still served.
   */
  private void assertFollower(int node) throws Exception {
    OrdererNode follower = cluster.nodes.get(node);
    await(
        () -> follower.channels().follower(LocalCluster.CHANNEL).isPresent(),
        "node " + node + " follows the channel");
    assertThat(follower.channels().info(LocalCluster.CHANNEL).orElseThrow().consensusRelation())
        .isEqualTo("follower");
    SigningIdentity user = cluster.clientIdentity();
    Envelope tx =
        new EnvelopeFactory(user, Clock.systemUTC())
            .transaction(LocalCluster.CHANNEL, new byte[100])
            .envelope();
    assertThat(broadcast(follower, tx).getStatus()).isEqualTo(Status.BAD_REQUEST);
    assertThat(cluster.fetch(follower, "newest").statusCode()).isEqualTo(200);
  }

  /**
   * The members' chains are one chain, every removed node's a prefix of it; every block is
   * hash-chained and signed by a quorum of the consenters in force at its height; every transaction
   * is there once.
   */
  private void assertLedgers(Set<Integer> members) throws Exception {
    List<Block> reference = LocalCluster.blocks(cluster.nodes.get(members.iterator().next()));
    for (int n = 0; n < cluster.nodes.size(); n++) {
      List<Block> chain = LocalCluster.blocks(cluster.nodes.get(n));
      List<Block> expected = members.contains(n) ? reference : reference.subList(0, chain.size());
      assertThat(chain.stream().map(Block::getHeader).toList())
          .as("chain of node %d", n)
          .isEqualTo(expected.stream().map(Block::getHeader).toList());
    }
    EpochSignatureCheck signatures =
        new EpochSignatureCheck(cluster.genesis(), n -> reference.get((int) n));
    Set<String> txIds = new HashSet<>();
    for (Block block : reference) {
      assertThat(signatures.apply(block)).isEmpty();
      long number = block.getHeader().getNumber();
      if (number > 0) {
        assertThat(block.getHeader().getPreviousHash().toByteArray())
            .isEqualTo(BlockHashing.headerHash(reference.get((int) number - 1).getHeader()));
      }
      for (ByteString data : block.getData().getDataList()) {
        if (number > 0 && !EnvelopeHeaders.isConfigEnvelope(data)) {
          String txId =
              ChannelHeader.parseFrom(
                      Payload.parseFrom(Envelope.parseFrom(data).getPayload())
                          .getHeader()
                          .getChannelHeader())
                  .getTxId();
          assertThat(txIds.add(txId)).as("tx %s ordered once", txId).isTrue();
        }
      }
    }
  }

  private BroadcastResponse broadcast(OrdererNode node, Envelope envelope) throws Exception {
    try (OrdererChannels connections = cluster.connect(List.of(node))) {
      Streams<BroadcastResponse> responses = new Streams<>();
      StreamObserver<Envelope> requests =
          AtomicBroadcastGrpc.newStub(connections.channels().getFirst()).broadcast(responses);
      requests.onNext(envelope);
      requests.onCompleted();
      return responses.next();
    }
  }

  private static UnaryOperator<List<Consenter>> without(long id) {
    return consenters -> consenters.stream().filter(c -> c.getId() != id).toList();
  }

  private static UnaryOperator<List<Consenter>> with(Consenter added) {
    return consenters -> {
      List<Consenter> more = new ArrayList<>(consenters);
      more.add(added);
      return more;
    };
  }

  private static UnaryOperator<List<Consenter>> renewedIdentity(long id, ByteString identity) {
    return consenters ->
        consenters.stream()
            .map(c -> c.getId() == id ? c.toBuilder().setIdentity(identity).build() : c)
            .toList();
  }

  private static Consenter consenterOf(Config config, long id) {
    return ConsenterUpdates.consenters(config).stream()
        .filter(c -> c.getId() == id)
        .findFirst()
        .orElseThrow();
  }

  private static X509Certificate identityOf(Config config, long id) throws Exception {
    Consenter consenter = consenterOf(config, id);
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(consenter.getIdentity().toByteArray()));
  }

  private Config config(Set<Integer> members) {
    return runtime(members.iterator().next()).config().config();
  }

  private ChannelRuntime runtime(int node) {
    return cluster.nodes.get(node).channels().runtime(LocalCluster.CHANNEL).orElseThrow();
  }

  private ReplicaHost host(int node) {
    return runtime(node).host().orElseThrow();
  }

  private List<OrdererNode> nodes(Set<Integer> indices) {
    return nodes(indices, -1);
  }

  /** The nodes {@code indices} in order, but {@code last} (if among them) last. */
  private List<OrdererNode> nodes(Set<Integer> indices, int last) {
    List<OrdererNode> chosen = new ArrayList<>();
    indices.stream().sorted().filter(i -> i != last).forEach(i -> chosen.add(cluster.nodes.get(i)));
    if (indices.contains(last)) {
      chosen.add(cluster.nodes.get(last));
    }
    return chosen;
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + AWAIT.toNanos();
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }
}
