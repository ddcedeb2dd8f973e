package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Quorums;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.ClientCalls;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.ConsenterUpdates;
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
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel's consenter set grows and shrinks on orderer processes while transactions flow, one
 * consenter per config update as Fabric allows: crypto is made for every orderer, the genesis block
 * names the first four; each added orderer is a process of its own joined with {@code osnadmin
 * channel join} and the newest config block (before the update that adds it, so it follows first,
 * or after it, with the config block that lists it), onboards by pulling and then votes; removals
 * take the current leader (found through the metrics) among others. After each change every member
 * runs the new epoch and every removed node follows. At the end every node's chain, read through
 * Deliver, is the same and valid: hash chain, each block signed by a quorum of the consenters in
 * force at its height, every transaction once.
 */
@Tag("multiprocess")
class ConsenterSetEndToEndTest {

  private static final Logger LOG = LoggerFactory.getLogger(ConsenterSetEndToEndTest.class);
  @RegisterExtension static final ProcessClusters CLUSTERS = new ProcessClusters();
  private static final int GENESIS_CONSENTERS = 4;

  /** Fabric's participation_consensus_relation values. */
  private static final long CONSENTER_RELATION = 1;

  private static final long FOLLOWER_RELATION = 2;

  /** A removal's id that means: whoever leads when the update is made. */
  private static final long LEADER = 0;

  private ProcessCluster cluster;
  private ClientTlsFiles tls;
  private EnvelopeFactory client;
  private int transactionsPerLoad;

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      ProcessCluster.logsOnFailure(() -> cluster);

  /**
   * One consenter change.
   *
   * @param adds whether it adds consenter {@code id} (else removes it)
   * @param id the consenter, or {@link #LEADER}
   * @param joinFirst for an addition: join the node (as follower) before the update is ordered,
   *     instead of after it with the config block that lists it
   */
  private record Step(boolean adds, long id, boolean joinFirst) {

    static Step add(long id, boolean joinFirst) {
      return new Step(true, id, joinFirst);
    }

    static Step remove(long id) {
      return new Step(false, id, false);
    }

    @Override
    public String toString() {
      return (adds ? "add " : "remove ") + (id == LEADER ? "the leader" : "consenter " + id);
    }
  }

  @Test
  void growsFromFourToFiveAndRemovesTheLeaderWhileTransactionsFlow() throws Exception {
    run(5, List.of(Step.add(5, false), Step.remove(LEADER)), 100);
  }

  @Test
  @Tag("long")
  void growsFromFourToSevenAndShrinksBackToFourRemovingLeadersWhileTransactionsFlow()
      throws Exception {
    run(
        7,
        List.of(
            Step.add(5, false),
            Step.add(6, true),
            Step.add(7, false),
            Step.remove(LEADER),
            Step.remove(7),
            Step.remove(LEADER)),
        200);
  }

  private void run(int orderers, List<Step> steps, int transactions) throws Exception {
    transactionsPerLoad = transactions;
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    cluster =
        CLUSTERS.track(
            ProcessCluster.create(
                Files.createTempDirectory(dir, "consenters-"),
                orderers,
                GENESIS_CONSENTERS,
                10,
                false));
    tls = ClientTlsFiles.serverOnly(cluster.ordererTlsCa());
    client = cluster.client();
    // The later consenters' processes start now too (with no channel): JVM starts are slow here.
    cluster.start(cluster.nodes());
    cluster.joinAll();
    SortedSet<Long> members = new TreeSet<>();
    cluster.genesisConsenters().forEach(node -> members.add(cluster.consenterId(node)));
    LOG.info("{} orderers started, consenters {} joined", orderers, members);

    List<Long> configBlocks = new ArrayList<>();
    for (Step step : steps) {
      long block = apply(step, members, configBlocks.size() + 1);
      configBlocks.add(block);
      LOG.info("{}: epoch {} with consenters {}", step, block, members);
    }
    load(nodes(members));
    for (NodeProcess node : nodes(members)) {
      assertThat(cluster.config(node).consenters().consenters().stream().map(c -> c.id()))
          .as("consenters of the newest config on %s", node)
          .containsExactlyInAnyOrderElementsOf(members);
    }

    // Removed consenters follow the channel, and a follower serves Deliver to orderers only.
    Chain chain =
        cluster.identicalChains(
            new EnvelopeFactory(cluster.ordererAdmin(), Clock.systemUTC()), tls);
    assertThat(chain.configUpdates().keySet()).containsExactlyElementsOf(configBlocks);
    assertThat(chain.txIdCounts().values()).allMatch(count -> count == 1, "every tx id once");
  }

  /**
   * Makes {@code step} while a load runs on the consenters that stay, waits for them at config
   * {@code sequence}, and checks that every member runs the new epoch and a removed node follows.
   * Updates {@code members}.
   *
   * @return the config block's number: the new epoch
   */
  private long apply(Step step, SortedSet<Long> members, long sequence) throws Exception {
    long id = step.id() == LEADER ? agreedLeader(members) : step.id();
    NodeProcess changed = cluster.byConsenterId(id);
    SortedSet<Long> staying = new TreeSet<>(members);
    staying.remove(id);
    List<NodeProcess> stayingNodes = nodes(staying);
    NodeProcess first = stayingNodes.getFirst();
    if (step.adds() && step.joinFirst()) {
      cluster.join(changed, cluster.configBlock(first), "follower");
    }
    Config current = cluster.config(first).config();
    Consenter added = step.adds() ? cluster.consenter(changed) : null;
    UnaryOperator<List<Consenter>> change =
        step.adds()
            ? consenters -> append(consenters, added)
            : consenters -> consenters.stream().filter(c -> c.getId() != id).toList();
    Envelope update =
        SignedUpdates.signed(
            ConsenterUpdates.update(ProcessCluster.CHANNEL, current, change),
            List.of(cluster.ordererAdmin()));
    applyWhileTransactionsFlow(stayingNodes, update, step);
    for (NodeProcess node : stayingNodes) {
      ProcessCluster.awaitCondition(
          node + " at config sequence " + sequence,
          () -> cluster.served(node).map(c -> c.sequence() >= sequence).orElse(false));
    }
    long block = cluster.config(first).blockNumber();
    if (step.adds()) {
      members.add(id);
      if (!step.joinFirst()) {
        cluster.join(changed, cluster.configBlock(first), "consenter");
      }
    } else {
      members.remove(id);
      ProcessCluster.awaitCondition(
          changed + " follows",
          () ->
              cluster.relation(changed).equals("follower")
                  && cluster
                      .gauge(changed, "participation_consensus_relation")
                      .equals(OptionalLong.of(FOLLOWER_RELATION)));
      try (OrdererChannels connection = cluster.connect(List.of(changed), tls)) {
        Envelope transaction = client.transaction(ProcessCluster.CHANNEL, new byte[100]).envelope();
        assertThat(ClientCalls.broadcast(connection.channels().getFirst(), transaction).getStatus())
            .as("Broadcast to %s, which follows (Fabric's follower: 400)", changed)
            .isEqualTo(Status.BAD_REQUEST);
      }
    }
    for (NodeProcess node : nodes(members)) {
      ProcessCluster.awaitCondition(
          node + " votes in epoch " + block,
          () ->
              cluster.gauge(node, "consensus_epoch").equals(OptionalLong.of(block))
                  && cluster.gauge(node, "consensus_is_consenter").equals(OptionalLong.of(1))
                  && cluster
                      .gauge(node, "participation_consensus_relation")
                      .equals(OptionalLong.of(CONSENTER_RELATION))
                  && cluster.relation(node).equals("consenter"));
    }
    return block;
  }

  /** Starts a load on {@code targets}, sends the update once blocks are cut, awaits the load. */
  private void applyWhileTransactionsFlow(List<NodeProcess> targets, Envelope update, Step step)
      throws Exception {
    NodeProcess target = targets.getFirst();
    long start = cluster.height(target);
    FutureTask<Void> flowing =
        new FutureTask<>(
            () -> {
              load(targets);
              return null;
            });
    Thread.ofVirtual().start(flowing);
    ProcessCluster.awaitCondition(
        "a block ordered under load", () -> cluster.height(target) > start || flowing.isDone());
    HttpResponse<String> answer = cluster.update(target, update);
    assertThat(answer.statusCode()).as(step + ": " + answer.body()).isEqualTo(201);
    flowing.get(10, TimeUnit.MINUTES);
  }

  /**
   * A load on {@code targets}, each transaction acknowledged by a quorum of them: consenters that
   * are members before and after the change in flight, so each answers SUCCESS throughout.
   */
  private void load(List<NodeProcess> targets) throws Exception {
    LoadSpec spec =
        new LoadSpec(
            ProcessCluster.CHANNEL,
            transactionsPerLoad,
            300,
            4,
            new Quorums(targets.size()).quorum(),
            OptionalDouble.empty(),
            Duration.ofMinutes(2));
    cluster.load(targets, spec, client, tls);
  }

  /** The leader's consenter id once every member reports the same one. */
  private long agreedLeader(SortedSet<Long> members) throws InterruptedException {
    long[] leader = new long[1];
    ProcessCluster.awaitCondition(
        "members " + members + " agree on a leader",
        () -> {
          List<OptionalLong> seen = new ArrayList<>();
          for (NodeProcess node : nodes(members)) {
            seen.add(cluster.leaderSeenBy(node));
          }
          OptionalLong first = seen.getFirst();
          boolean agreed =
              first.isPresent()
                  && members.contains(first.getAsLong())
                  && seen.stream().allMatch(first::equals);
          leader[0] = first.orElse(-1);
          return agreed;
        });
    return leader[0];
  }

  private List<NodeProcess> nodes(SortedSet<Long> ids) {
    return ids.stream().map(cluster::byConsenterId).toList();
  }

  private static List<Consenter> append(List<Consenter> consenters, Consenter added) {
    List<Consenter> more = new ArrayList<>(consenters);
    more.add(added);
    return more;
  }
}
