package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 18's stopped-backup run, with the launcher's memory defaults (its default plan's heap, exit
 * on heap exhaustion): a backup is stopped with SIGSTOP while thousands of 3 KB envelopes go to the
 * three other orderers, then resumed. Frames for the stopped backup pile up on every other node's
 * link to it, and before the byte budgets they filled the running nodes' heaps until they died.
 * Asserts: no node dies, all four reach the same valid chain, and every envelope a quorum
 * acknowledged is in it exactly once. Progress only, never speed.
 *
 * <p>It failed once state transfer rotated its sources (issue 17): a source dropped a fetch that
 * came before its next archive read was allowed, looked silent and was distrusted, so the resumed
 * backup crawled. Such a fetch now waits for that read (bft-core StateTransfer).
 */
class StoppedBackupEndToEndTest {

  private static final Logger LOG = LoggerFactory.getLogger(StoppedBackupEndToEndTest.class);

  /** Envelopes sent while the backup is stopped; {@code -Dstopped.transactions} to change. */
  private static final int TRANSACTIONS = Integer.getInteger("stopped.transactions", 6_000);

  @RegisterExtension static final ProcessClusters CLUSTERS = new ProcessClusters();

  private ProcessCluster cluster;

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      ProcessCluster.logsOnFailure(() -> cluster);

  @Test
  void aBackupStoppedUnderLoadCostsNoNodeItsLifeAndCatchesUpWhenResumed() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    cluster =
        CLUSTERS.track(
            ProcessCluster.create(Files.createTempDirectory(dir, "stopped-"), 100, false));
    stopABackupUnderLoad(TRANSACTIONS, 16);
  }

  /**
   * Issue 18's run as an operator would do it, on demand: 4 nodes from Fabric-made crypto (the test
   * data's cryptogen output) with the launcher's defaults, 16,000 envelopes of 3 KB from 64 gateway
   * submitters to the three running orderers, then {@code kill -CONT}; the resident memory of every
   * node within the fault suite's budget too. Its figures are in BENCHMARKS.md ("Faults").
   */
  @Test
  @Tag("long")
  @Tag("multiprocess")
  void issue18sStoppedBackupRunWithTheDefaults() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    cluster =
        CLUSTERS.track(
            ProcessCluster.createWithFabricCrypto(
                Files.createTempDirectory(dir, "stopped-fabric-"), 100));
    long started = System.nanoTime();
    stopABackupUnderLoad(Integer.getInteger("stopped.transactions", 16_000), 64);
    Map<String, Long> peakRss = new TreeMap<>();
    for (NodeProcess node : cluster.nodes()) {
      peakRss.put(node.name(), node.rss().orElseThrow().peak() >> 20);
    }
    LOG.info(
        "stopped-backup run: {} s in all, peak RSS per node (MB) {}",
        Duration.ofNanos(System.nanoTime() - started).toSeconds(),
        peakRss);
    assertThat(peakRss.values())
        .as("peak RSS per node (MB)")
        .allMatch(mb -> mb <= FaultCluster.RSS_BUDGET >> 20);
  }

  /**
   * Stops a backup with SIGSTOP, sends {@code transactions} envelopes of 3 KB from {@code streams}
   * gateway submitters to the three others, resumes it, and checks the outcome: all four alive, at
   * the same height, every acknowledged envelope in the chain exactly once.
   */
  private void stopABackupUnderLoad(int transactions, int streams) throws Exception {
    cluster.nodes().forEach(NodeProcess::useLauncherMemory);
    EnvelopeFactory client = cluster.client();
    cluster.start(cluster.nodes());
    cluster.joinAll();
    long leader = agreedLeader();
    NodeProcess backup =
        cluster.nodes().stream()
            .filter(node -> cluster.consenterId(node) != leader)
            .findFirst()
            .orElseThrow();
    List<NodeProcess> running = cluster.nodes().stream().filter(n -> n != backup).toList();

    backup.pause();
    LOG.info("backup {} stopped", backup.name());
    LoadReport report;
    long resumed;
    try {
      report =
          cluster.load(
              running,
              new LoadSpec(
                  ProcessCluster.CHANNEL,
                  transactions,
                  3_000,
                  streams,
                  cluster.quorum(),
                  OptionalDouble.empty(),
                  Duration.ofMinutes(6)),
              client,
              ClientTlsFiles.serverOnly(cluster.ordererTlsCa()));
      LOG.info("load run passed with the backup stopped:\n{}", report.format());
    } finally {
      backup.resume();
      resumed = System.nanoTime();
      LOG.info("backup {} resumed", backup.name());
    }

    for (NodeProcess node : cluster.nodes()) {
      assertThat(node.isAlive()).as("%s is alive", node.name()).isTrue();
    }
    long height = cluster.height(running.getFirst());
    ProcessCluster.awaitCondition(
        "the resumed backup catches up", () -> cluster.height(backup) >= height);
    LOG.info(
        "backup {} caught up to height {} in {} ms after its resume",
        backup.name(),
        height,
        Duration.ofNanos(System.nanoTime() - resumed).toMillis());
    Chain chain =
        cluster.identicalChains(client, ClientTlsFiles.serverOnly(cluster.ordererTlsCa()));
    Set<Long> heights = new HashSet<>();
    for (NodeProcess node : cluster.nodes()) {
      assertThat(node.isAlive()).as("%s is alive", node.name()).isTrue();
      heights.add(cluster.height(node));
    }
    assertThat(heights).as("the nodes' heights").hasSize(1);
    Map<String, Integer> counts = chain.txIdCounts();
    assertThat(counts.values()).allMatch(count -> count == 1, "every tx id occurs once");
    assertThat(counts.keySet()).containsAll(report.delivery().acceptedTxIds());
  }

  private long agreedLeader() throws InterruptedException {
    Set<Long> seen = new HashSet<>();
    ProcessCluster.awaitCondition(
        "the nodes agree on a leader",
        () -> {
          seen.clear();
          for (NodeProcess node : cluster.nodes()) {
            OptionalLong leader = cluster.leaderSeenBy(node);
            if (leader.isEmpty()) {
              return false;
            }
            seen.add(leader.getAsLong());
          }
          return seen.size() == 1;
        });
    return seen.iterator().next();
  }
}
