package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Four orderer nodes as four real processes, faults injected with SIGKILL: Fabric clients keep
 * being served while a follower is dead and while the leader is dead (after a view change), a
 * restarted node catches up and serves the same chain, and after all four are killed and started
 * again no transaction a quorum acknowledged is lost or ordered twice. Every replica's chain is
 * read through Deliver and checked as a Fabric peer checks it. Node logs stay under
 * target/multiproc/; their paths are in the failure message.
 */
@Tag("multiprocess")
class MultiProcessClusterTest {

  private static final Logger LOG = LoggerFactory.getLogger(MultiProcessClusterTest.class);
  @RegisterExtension static final ProcessClusters CLUSTERS = new ProcessClusters();

  private ProcessCluster cluster;
  private EnvelopeFactory client;
  private final Set<String> acknowledged = new HashSet<>();

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      ProcessCluster.logsOnFailure(() -> cluster);

  /**
   * A run's size.
   *
   * @param rounds how often a follower, then the leader, is killed and restarted
   * @param transactions per load phase
   * @param payloadBytes random payload per transaction
   */
  private record Workload(int rounds, int transactions, int payloadBytes) {}

  @Test
  void survivesKilledFollowerLeaderAndWholeCluster() throws Exception {
    run(new Workload(1, 200, 300));
  }

  @Test
  @Tag("long")
  void survivesRepeatedKillsUnderLargerLoad() throws Exception {
    run(new Workload(3, 2_000, 2_800));
  }

  private void run(Workload workload) throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    cluster =
        CLUSTERS.track(
            ProcessCluster.create(Files.createTempDirectory(dir, "cluster-"), 50, false));
    client = cluster.client();
    cluster.start(cluster.nodes());
    cluster.joinAll();
    LOG.info("4 nodes started and joined");
    load(cluster.nodes(), workload, OptionalDouble.empty());
    expectIdenticalChains();

    for (int round = 0; round < workload.rounds(); round++) {
      NodeProcess follower = aFollower();
      follower.kill();
      LOG.info("follower {} killed", follower.name());
      load(cluster.nodes(), workload, OptionalDouble.empty());
      restartAndCatchUp(follower, workload);

      NodeProcess leader = killLeaderUnderLoad(workload);
      restartAndCatchUp(leader, workload);
    }

    Chain before = expectIdenticalChains();
    for (NodeProcess node : cluster.nodes()) {
      node.kill();
    }
    cluster.start(cluster.nodes());
    LOG.info("all 4 nodes killed and restarted");
    Chain after = expectIdenticalChains();
    assertThat(after.headers().subList(0, before.headers().size())).isEqualTo(before.headers());
    load(cluster.nodes(), workload, OptionalDouble.empty());
    expectEveryAcknowledgedTransactionOnce(expectIdenticalChains());
  }

  private void restartAndCatchUp(NodeProcess node, Workload workload) throws Exception {
    cluster.start(List.of(node));
    LOG.info("{} restarted", node.name());
    load(cluster.nodes(), workload, OptionalDouble.empty());
    expectIdenticalChains();
  }

  /**
   * Kills the leader while a paced load runs whose Deliver stream reads from the leader: the load
   * must pass (its Deliver moved to another orderer, the survivors changed view and ordered what
   * they acknowledged) and the survivors must agree on a new leader.
   */
  private NodeProcess killLeaderUnderLoad(Workload workload) throws Exception {
    NodeProcess leader = cluster.byConsenterId(agreedLeader(cluster.nodes()));
    List<NodeProcess> leaderFirst = new ArrayList<>(List.of(leader));
    cluster.nodes().stream().filter(n -> n != leader).forEach(leaderFirst::add);
    List<NodeProcess> survivors = leaderFirst.subList(1, leaderFirst.size());
    long start = cluster.height(survivors.getFirst());
    // Paced so that submissions go on after the kill, through the view change.
    double rate = workload.transactions() / 5.0;
    FutureTask<LoadReport> running =
        new FutureTask<>(() -> load(leaderFirst, workload, OptionalDouble.of(rate)));
    Thread.ofVirtual().start(running);
    ProcessCluster.awaitCondition(
        "two blocks ordered under load", () -> cluster.height(survivors.getFirst()) >= start + 2);
    leader.kill();
    LOG.info("leader {} killed under load", leader.name());
    LoadReport report = running.get(10, TimeUnit.MINUTES);
    assertThat(report.deliverFailovers()).as(report.format()).isPositive();
    ProcessCluster.awaitCondition(
        "the survivors agree on a new leader",
        () -> {
          OptionalLong agreed = agreement(survivors);
          return agreed.isPresent() && agreed.getAsLong() != cluster.consenterId(leader);
        });
    return leader;
  }

  private NodeProcess aFollower() throws Exception {
    long leader = agreedLeader(cluster.nodes());
    return cluster.nodes().stream()
        .filter(n -> cluster.consenterId(n) != leader)
        .findFirst()
        .orElseThrow();
  }

  private long agreedLeader(List<NodeProcess> nodes) throws InterruptedException {
    ProcessCluster.awaitCondition(
        "the nodes agree on a leader", () -> agreement(nodes).isPresent());
    try {
      return agreement(nodes).orElseThrow();
    } catch (IOException e) {
      throw new AssertionError("a node stopped answering", e);
    }
  }

  private OptionalLong agreement(List<NodeProcess> nodes) throws IOException, InterruptedException {
    Set<Long> seen = new HashSet<>();
    for (NodeProcess node : nodes) {
      OptionalLong leader = cluster.leaderSeenBy(node);
      if (leader.isEmpty()) {
        return OptionalLong.empty();
      }
      seen.add(leader.getAsLong());
    }
    return seen.size() == 1 ? OptionalLong.of(seen.iterator().next()) : OptionalLong.empty();
  }

  /**
   * Submits to {@code targets} (dead ones included, as a gateway that does not know better would)
   * and checks the run: a quorum acknowledged, everything acknowledged delivered once, every block
   * verified.
   */
  private LoadReport load(List<NodeProcess> targets, Workload workload, OptionalDouble rate)
      throws Exception {
    LoadSpec spec =
        new LoadSpec(
            ProcessCluster.CHANNEL,
            workload.transactions(),
            workload.payloadBytes(),
            8,
            cluster.quorum(),
            rate,
            Duration.ofMinutes(2));
    LoadReport report = cluster.load(targets, spec, client, serverOnlyTls());
    LOG.info("load run passed:\n{}", report.format());
    synchronized (acknowledged) {
      acknowledged.addAll(report.delivery().acceptedTxIds());
    }
    return report;
  }

  /** Every node's chain, read through Deliver: valid and the same on all. */
  private Chain expectIdenticalChains() throws Exception {
    Chain chain = cluster.identicalChains(client, serverOnlyTls());
    LOG.info("every node serves the same valid chain of {} blocks", chain.headers().size());
    return chain;
  }

  private ClientTlsFiles serverOnlyTls() {
    return ClientTlsFiles.serverOnly(cluster.ordererTlsCa());
  }

  private void expectEveryAcknowledgedTransactionOnce(Chain chain) {
    Map<String, Integer> counts = chain.txIdCounts();
    assertThat(counts.values()).allMatch(count -> count == 1, "every tx id occurs once");
    assertThat(counts.keySet()).containsAll(acknowledged);
  }
}
