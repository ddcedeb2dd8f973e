package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.FreePorts;
import io.rubinbft.orderer.testing.TmpfsDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Four orderer processes with the launcher's memory defaults (its default plan's heap, exit on heap
 * exhaustion) made to suffer faults while a gateway-style load runs: the faults (kill -9 and
 * restart, SIGSTOP and SIGCONT, a restart with an empty data folder and a rejoin, a full disk, a
 * partition, all four restarted) and the checks after each (no node died, the same valid chain
 * everywhere, every acknowledged transaction in it once, memory in budget). Every node's cluster
 * port is behind a {@link ClusterPartition} proxy, and node 4's data folder is a small tmpfs
 * ({@link TmpfsDisk}).
 */
// close() waits for what it started to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
final class FaultCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FaultCluster.class);

  /** The genesis block's SmartBFT view-change and request-complain timeouts (SmartBftOptions). */
  static final Duration VIEW_CHANGE_TIMEOUT = Duration.ofSeconds(20);

  /**
   * How much longer than {@link #VIEW_CHANGE_TIMEOUT} the channel may take to order again after a
   * fault: a generous bound for a shared two-core machine, where a node JVM's start alone has taken
   * 40-60 s (orderer/docs/END-TO-END-TESTS.md).
   */
  static final Duration RESUME_BOUND = Duration.ofSeconds(100);

  /** Blocks the channel must order to count as ordering (every block holds a transaction). */
  static final int PROGRESS_BLOCKS = 3;

  /** The launcher's heap ceiling: its default plan's (NodeProcess.useLauncherMemory). */
  static final long HEAP_CEILING =
      HeapSize.need(HeapSize.Plan.DEFAULT, MemoryBudgets.standard()).heapBytes();

  /**
   * The resident memory a node may reach: the heap it uses plus the ~160 MB the JVM, RocksDB and
   * the network need beside it (orderer/docs/MEMORY.md), with room for the JIT and faults'
   * catch-up. Below the heap ceiling plus that: the ceiling is the worst case of the plan's
   * budgets, and the serial collector grows the heap only as its live data needs.
   */
  static final long RSS_BUDGET = 400L << 20;

  private final ProcessCluster cluster;
  private final ClusterPartition partition;
  private final TmpfsDisk disk;
  private final EnvelopeFactory client;
  private final ClientTlsFiles tls;
  private final BackgroundLoad load;
  private final Map<String, Long> maxHeap = new ConcurrentHashMap<>();
  private final Map<String, Long> maxRss = new ConcurrentHashMap<>();
  private final Thread sampler;
  private final Path notes;
  private volatile boolean closed;

  private FaultCluster(
      ProcessCluster cluster, ClusterPartition partition, TmpfsDisk disk, Path notes) {
    this.cluster = cluster;
    this.notes = notes;
    this.partition = partition;
    this.disk = disk;
    this.client = cluster.client();
    this.tls = ClientTlsFiles.serverOnly(cluster.ordererTlsCa());
    this.load = new BackgroundLoad(cluster, client, tls, 150, 3_000, 16, 40);
    this.sampler = Thread.ofVirtual().name("memory-sampler").start(this::sample);
  }

  /**
   * Makes, starts and joins the cluster under {@code dir}: blocks of up to 100 envelopes, the
   * launcher's memory defaults, proxies in front of the cluster ports, a tmpfs under node 4's data.
   */
  static FaultCluster start(Path dir) throws Exception {
    ProcessCluster cluster = ProcessCluster.create(dir, 100, false);
    ClusterPartition partition = new ClusterPartition();
    TmpfsDisk disk = null;
    try {
      for (NodeProcess node : cluster.nodes()) {
        node.useLauncherMemory();
        int nodePort = FreePorts.block(1);
        node.putEnvironment("ORDERER_GENERAL_CLUSTER_LISTENPORT", Integer.toString(nodePort));
        partition.add(cluster.clusterPort(node), nodePort);
      }
      disk = TmpfsDisk.mount(cluster.ledgerDir(cluster.node(3)), 1L << 30);
      FaultCluster faults =
          new FaultCluster(cluster, partition, disk, dir.resolve("logs").resolve("faults.log"));
      cluster.start(cluster.nodes());
      cluster.joinAll();
      return faults;
    } catch (Exception | AssertionError e) {
      cluster.close();
      partition.close();
      if (disk != null) {
        disk.close();
      }
      throw e;
    }
  }

  ProcessCluster cluster() {
    return cluster;
  }

  BackgroundLoad load() {
    return load;
  }

  /** The node whose data folder is the small tmpfs. */
  NodeProcess diskNode() {
    return cluster.node(3);
  }

  /** The leader a quorum of the nodes reports, once a quorum reports the same one. */
  NodeProcess leader() throws InterruptedException {
    long[] agreed = new long[1];
    ProcessCluster.awaitCondition(
        "a quorum of the nodes agrees on a leader",
        () -> {
          Map<Long, Integer> votes = new HashMap<>();
          for (NodeProcess node : cluster.nodes()) {
            try {
              cluster.leaderSeenBy(node).ifPresent(id -> votes.merge(id, 1, Integer::sum));
            } catch (IOException e) {
              LOG.debug("{} tells no leader", node.name(), e);
            }
          }
          for (Map.Entry<Long, Integer> vote : votes.entrySet()) {
            if (vote.getValue() >= cluster.quorum()) {
              agreed[0] = vote.getKey();
              return true;
            }
          }
          return false;
        });
    return cluster.byConsenterId(agreed[0]);
  }

  /** Appends {@code line} to the suite's own log ({@code faults.log} beside the node logs). */
  void note(String line) {
    SuiteNotes.append(LOG, notes, line);
  }

  /** A node that is neither the leader nor one of {@code besides}. */
  NodeProcess backup(NodeProcess... besides) throws InterruptedException {
    NodeProcess leader = leader();
    List<NodeProcess> excluded = new ArrayList<>(List.of(besides));
    excluded.add(leader);
    return cluster.nodes().stream().filter(n -> !excluded.contains(n)).findFirst().orElseThrow();
  }

  // ---- faults: each injects, waits for the others to order, heals, waits for all to order ----

  /** kill -9, {@code down} later a restart on the same data. */
  void killAndRestart(NodeProcess node, Duration down) throws Exception {
    List<NodeProcess> others = others(node);
    long height = height(others);
    node.kill();
    note("FAULT kill -9 " + node.name());
    awaitOrdering(others, height, "after " + node.name() + " was killed");
    Thread.sleep(down.toMillis());
    cluster.start(List.of(node));
    load.reconnectNow();
    awaitOrdering(cluster.nodes(), height(cluster.nodes()), "after " + node.name() + " restarted");
  }

  /** kill -STOP for {@code stopped}, then kill -CONT. */
  void pauseAndResume(NodeProcess node, Duration stopped) throws Exception {
    List<NodeProcess> others = others(node);
    long height = height(others);
    node.pause();
    note("FAULT kill -STOP " + node.name());
    try {
      awaitOrdering(others, height, "while " + node.name() + " is stopped");
      Thread.sleep(stopped.toMillis());
    } finally {
      node.resume();
    }
    awaitOrdering(cluster.nodes(), height(others), "after " + node.name() + " resumed");
  }

  /**
   * kill -9, its ledger and WAL deleted, started again: it has no channel, so it is joined as an
   * operator joins a node that lost its data, with {@code osnadmin channel fetch config} from
   * another orderer and {@code osnadmin channel join} with that block; then it must catch up.
   */
  void restartWithEmptyDataFolder(NodeProcess node) throws Exception {
    List<NodeProcess> others = others(node);
    long height = height(others);
    node.kill();
    note("FAULT kill -9 " + node.name() + " and delete its data");
    deleteContents(cluster.ledgerDir(node));
    awaitOrdering(others, height, "after " + node.name() + " lost its data");
    cluster.start(List.of(node));
    load.reconnectNow();
    byte[] configBlock = cluster.configBlock(others.getFirst());
    cluster.join(node, configBlock, "consenter");
    long target = height(others);
    ProcessCluster.awaitCondition(
        node.name() + " catches up from nothing to height " + target,
        ProcessCluster.PATIENCE,
        () -> cluster.height(node) >= target);
    awaitOrdering(cluster.nodes(), height(cluster.nodes()), "after " + node.name() + " rejoined");
  }

  /**
   * Shrinks the tmpfs under {@link #diskNode()} to what it holds, so its next write that needs a
   * page fails with ENOSPC, waits until the others ordered on, holds it full for {@code full}, then
   * gives the space back. (Room left for the load to fill is no disk-full fault: a node whose first
   * failed write is a large one stops writing with the room still free.)
   */
  void fillDisk(Duration full) throws Exception {
    NodeProcess node = diskNode();
    List<NodeProcess> others = others(node);
    long size = disk.shrinkToUsed();
    note("FAULT disk of " + node.name() + " full at " + size + " bytes");
    try {
      awaitOrdering(others, height(others), "while " + node.name() + "'s disk is full");
      Thread.sleep(full.toMillis());
    } finally {
      disk.resize(1L << 30);
    }
    note("disk of " + node.name() + " has space again");
    awaitOrdering(cluster.nodes(), height(others), "after " + node.name() + "'s disk has space");
  }

  /**
   * Drops every replica message to and from {@code node} for {@code cut}, then heals; the node must
   * then be in the others' view and order with them (not alone in a view of its own).
   */
  void isolate(NodeProcess node, Duration cut) throws Exception {
    List<NodeProcess> others = others(node);
    long height = height(others);
    partition.isolate(cluster.nodes().indexOf(node), node.pid().orElseThrow());
    note("FAULT " + node.name() + " partitioned");
    try {
      awaitOrdering(others, height, "while " + node.name() + " is partitioned");
      Thread.sleep(cut.toMillis());
    } finally {
      partition.heal();
    }
    awaitOrdering(cluster.nodes(), height(others), "after " + node.name() + "'s partition healed");
    ProcessCluster.awaitCondition(
        node.name() + " is in the others' view again",
        VIEW_CHANGE_TIMEOUT.plus(RESUME_BOUND),
        () -> {
          Set<Long> views = new HashSet<>();
          for (NodeProcess each : cluster.nodes()) {
            views.add(cluster.gauge(each, "consensus_smartbft_view_number").orElse(-1));
          }
          return views.size() == 1;
        });
  }

  /** kill -9 of all four at once, all restarted together. */
  void restartAll() throws Exception {
    long height = height(cluster.nodes());
    for (NodeProcess node : cluster.nodes()) {
      node.kill();
    }
    note("FAULT kill -9 of all four");
    cluster.start(cluster.nodes());
    load.reconnectNow();
    awaitOrdering(cluster.nodes(), height, "after all four restarted");
  }

  // ---- checks ----

  /**
   * Every node alive with no heap exhaustion or thread death in its log; every node's chain the
   * same, valid and holding every transaction a quorum acknowledged exactly once; no load run lost,
   * duplicated or failed to verify anything; heap and RSS in budget. Call with the load stopped.
   */
  void checkEverything() throws Exception {
    for (NodeProcess node : cluster.nodes()) {
      assertThat(node.isAlive()).as("%s is alive", node.name()).isTrue();
      assertThat(node.deathsInLog()).as("%s log", node.name()).isEmpty();
    }
    assertThat(load.problems()).as("load runs with problems").isEmpty();
    Chain chain = cluster.identicalChains(client, tls);
    Map<String, Integer> counts = chain.txIdCounts();
    assertThat(counts.entrySet().stream().filter(e -> e.getValue() != 1).toList())
        .as("transactions ordered more than once")
        .isEmpty();
    Set<String> missing = new HashSet<>(load.accepted());
    missing.removeAll(counts.keySet());
    assertThat(missing).as("acknowledged by a quorum but not in the chain").isEmpty();
    assertThat(maxHeap.values().stream().mapToLong(Long::longValue).max().orElse(0))
        .as("heap used (%s)", maxHeap)
        .isLessThanOrEqualTo(HEAP_CEILING);
    assertThat(maxRss().orElse(0)).as("peak RSS (%s)", maxRss).isLessThanOrEqualTo(RSS_BUDGET);
    note(
        String.format(
            Locale.ROOT,
            "checked: %d blocks the same on all nodes, %d transactions acknowledged, all once; %s",
            chain.headers().size(),
            load.accepted().size(),
            memoryFigures()));
  }

  /** The highest resident memory any node process reached so far. */
  OptionalLong maxRss() {
    return maxRss.values().stream().mapToLong(Long::longValue).max();
  }

  String memoryFigures() {
    return String.format(
        Locale.ROOT,
        "max heap used %d MB (ceiling %d), max RSS %d MB per node %s",
        maxHeap.values().stream().mapToLong(Long::longValue).max().orElse(0) >> 20,
        HEAP_CEILING >> 20,
        maxRss().orElse(0) >> 20,
        maxRss.entrySet().stream()
            .sorted(Map.Entry.comparingByKey())
            .map(e -> e.getKey() + "=" + (e.getValue() >> 20))
            .toList());
  }

  @Override
  public void close() throws Exception {
    closed = true;
    sampler.interrupt();
    load.stop();
    cluster.close();
    partition.close();
    disk.close();
  }

  // ---- waiting ----

  /**
   * Waits until the highest of {@code nodes} is {@link #PROGRESS_BLOCKS} past {@code height},
   * within {@link #VIEW_CHANGE_TIMEOUT} plus {@link #RESUME_BOUND}.
   */
  void awaitOrdering(List<NodeProcess> nodes, long height, String when)
      throws InterruptedException {
    long target = height + PROGRESS_BLOCKS;
    long start = System.nanoTime();
    ProcessCluster.awaitCondition(
        "the channel orders " + PROGRESS_BLOCKS + " blocks past height " + height + " " + when,
        VIEW_CHANGE_TIMEOUT.plus(RESUME_BOUND),
        () -> height(nodes) >= target);
    note(
        String.format(
            Locale.ROOT,
            "ordering %s: height %d reached in %.1f s",
            when,
            target,
            (System.nanoTime() - start) / 1e9));
  }

  /** The highest height any of {@code nodes} answers with (0 if none answers). */
  long height(List<NodeProcess> nodes) throws InterruptedException {
    long height = 0;
    for (NodeProcess node : nodes) {
      try {
        if (node.isAlive()) {
          height = Math.max(height, cluster.height(node));
        }
      } catch (IOException | AssertionError e) {
        LOG.debug("{} answers no height", node.name(), e);
      }
    }
    return height;
  }

  private List<NodeProcess> others(NodeProcess node) {
    return cluster.nodes().stream().filter(n -> n != node).toList();
  }

  private void sample() {
    while (!closed) {
      for (NodeProcess node : cluster.nodes()) {
        node.rss().ifPresent(rss -> maxRss.merge(node.name(), rss.peak(), Math::max));
        try {
          if (node.isAlive()) {
            cluster.heapUsed(node).ifPresent(used -> maxHeap.merge(node.name(), used, Math::max));
          }
        } catch (IOException | RuntimeException e) {
          LOG.trace("no heap figure from {}", node.name(), e);
        } catch (InterruptedException e) {
          return;
        }
      }
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static void deleteContents(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
        if (!path.equals(folder)) {
          Files.delete(path);
        }
      }
    }
  }
}
