package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.tools.bootstrap.LocalNetwork;
import io.rubinbft.orderer.tools.bootstrap.LocalNetworkSpec;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.bootstrap.PortPlan;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 18, item 4, on demand ({@code -Plong}): four nodes started by the distribution's launcher
 * with the plan an operator gives it for ten channels of Fabric's 10 MB blocks ({@code
 * RUBIN_CHANNELS=10}; the launcher sums the heap from it), on the crypto material Fabric's
 * cryptogen made for the test data. Ten channels, each with AbsoluteMaxBytes 10 MiB, get
 * gateway-style load at once: envelopes of about 1 MB, so that ten of them fill a block to its
 * limit and the blocks cut under load are real 10 MB blocks. During the load the primary is killed
 * with SIGKILL and restarted, then a backup is stopped with SIGSTOP and resumed. Asserts: no node
 * died or logged heap exhaustion, every node holds the same valid chain on every channel, every
 * envelope a quorum acknowledged is in its channel's chain exactly once, blocks of at least 9 MB
 * were cut, and each node's peak resident memory stayed within the plan's memory (heap and
 * outside). Progress only, never speed; the figures are logged for BENCHMARKS.md ("Faults").
 */
class TenChannelsEndToEndTest {

  private static final Logger LOG = LoggerFactory.getLogger(TenChannelsEndToEndTest.class);

  private static final int CHANNELS = 10;

  /**
   * The launcher's plan variables for this node, as orderer/docs/MEMORY.md "Sizing" tells an
   * operator.
   */
  private static final Map<String, String> PLAN = Map.of("RUBIN_CHANNELS", "10");

  /**
   * Payload per envelope: ten envelopes of it (with their ~1 KB of headers and signature) fill the
   * channel's 10 MiB AbsoluteMaxBytes, and an eleventh does not fit, so a batch cut under load is a
   * block of about 10 MB. Few large envelopes, rather than many of 100 KB, keep the clients'
   * signing and the nodes' per-envelope checks small beside the block's bytes on two cores.
   */
  private static final int PAYLOAD_BYTES =
      Integer.getInteger("tenchannels.payloadBytes", 1_000_000);

  /** Gateway submitters per channel. */
  private static final int STREAMS = Integer.getInteger("tenchannels.streams", 4);

  /** Envelopes per second submitted to each channel. */
  private static final double RATE =
      Double.parseDouble(System.getProperty("tenchannels.rate", "1.0"));

  /** Blocks every channel must order in each phase (before, during and after each fault). */
  private static final int BLOCKS = Integer.getInteger("tenchannels.blocks", 2);

  /** How long a phase may take on a shared two-core machine. */
  private static final Duration PHASE =
      Duration.ofMinutes(Integer.getInteger("tenchannels.phaseMinutes", 10));

  private static final Duration KILLED = Duration.ofSeconds(10);

  private static final Duration STOPPED =
      Duration.ofSeconds(Integer.getInteger("tenchannels.stopSeconds", 30));

  /** A block this full counts as a real 10 MB block: nine or ten of the envelopes above. */
  private static final long FULL_BLOCK_BYTES = 9_000_000;

  @RegisterExtension static final ProcessClusters CLUSTERS = new ProcessClusters();

  private ProcessCluster cluster;

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      ProcessCluster.logsOnFailure(() -> cluster);

  private final Map<String, Long> peakRss = new ConcurrentHashMap<>();
  private Path notes;
  private volatile boolean sampling = true;

  @Test
  @Tag("long")
  @Tag("multiprocess")
  void tenChannelsOfTenMegabyteBlocksSurviveKillsAndStopsOnTheLaunchersPlan() throws Exception {
    Path dir =
        Files.createTempDirectory(
                Files.createDirectories(Path.of("target", "multiproc")), "ten-channels-")
            .toAbsolutePath();
    cluster = CLUSTERS.track(ProcessCluster.createWithFabricCrypto(dir, 500));
    notes = dir.resolve("logs").resolve("ten-channels.log");
    List<String> channels = channels(dir, cluster.network());
    LauncherDistribution distribution = LauncherDistribution.create(dir.resolve("dist"));
    cluster.nodes().forEach(node -> node.useLauncher(distribution, PLAN));
    HeapSize.Need plan =
        HeapSize.need(new HeapSize.Plan(CHANNELS, 10L << 20, 4), MemoryBudgets.standard());
    note("the launcher's plan: {}", plan.explained());

    cluster.start(cluster.nodes());
    for (String channel : channels) {
      byte[] genesis = Files.readAllBytes(cluster.genesisBlock(channel));
      for (NodeProcess node : cluster.nodes()) {
        cluster.join(node, genesis, "consenter");
      }
    }
    Thread sampler = Thread.ofVirtual().name("rss-sampler").start(this::sampleRss);
    EnvelopeFactory client = cluster.client();
    ClientTlsFiles tls = ClientTlsFiles.serverOnly(cluster.ordererTlsCa());
    Map<String, BackgroundLoad> loads = new LinkedHashMap<>();
    for (String channel : channels) {
      loads.put(
          channel,
          new BackgroundLoad(
              cluster,
              client,
              tls,
              new LoadSpec(
                  channel,
                  20,
                  PAYLOAD_BYTES,
                  STREAMS,
                  cluster.quorum(),
                  OptionalDouble.of(RATE),
                  ProcessCluster.PATIENCE),
              () -> cluster.signatures(channel)));
    }
    long started = System.nanoTime();
    Map<String, String> figures = new LinkedHashMap<>();
    try {
      loads.values().forEach(BackgroundLoad::start);
      figures.put("warm-up", awaitBlocks(channels, cluster.nodes(), "under load"));

      NodeProcess primary = primary(channels);
      List<NodeProcess> others = othersThan(primary);
      primary.kill();
      note("kill -9 of {}", primary.name());
      figures.put(
          "primary killed", awaitBlocks(channels, others, "after " + primary.name() + "'s kill"));
      Thread.sleep(KILLED.toMillis());
      long restarted = System.nanoTime();
      cluster.start(List.of(primary));
      loads.values().forEach(BackgroundLoad::reconnectNow);
      figures.put("primary restarted", caughtUp(channels, primary, others, restarted));
      figures.put(
          "after the restart",
          awaitBlocks(channels, cluster.nodes(), "after " + primary.name() + "'s restart"));

      // Not the first node: every load's Deliver follows it, and a stopped process keeps its
      // connections open, so the loads would wait on it (the load generator has no keepalive).
      NodeProcess leader = primary(channels);
      NodeProcess backup =
          cluster.nodes().stream()
              .filter(node -> node != leader && node != cluster.node(0))
              .findFirst()
              .orElseThrow();
      List<NodeProcess> running = othersThan(backup);
      backup.pause();
      note("kill -STOP of {}", backup.name());
      try {
        figures.put(
            "backup stopped",
            awaitBlocks(channels, running, "while " + backup.name() + " is stopped"));
        Thread.sleep(STOPPED.toMillis());
      } finally {
        backup.resume();
      }
      long resumed = System.nanoTime();
      note("kill -CONT of {}", backup.name());
      figures.put("backup resumed", caughtUp(channels, backup, running, resumed));
      figures.put(
          "after the resume",
          awaitBlocks(channels, cluster.nodes(), "after " + backup.name() + "'s resume"));
    } finally {
      for (BackgroundLoad load : loads.values()) {
        load.stop();
      }
    }
    figures.put("load", Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s");

    for (NodeProcess node : cluster.nodes()) {
      assertThat(node.isAlive()).as("%s is alive", node.name()).isTrue();
      assertThat(node.deathsInLog()).as("%s log", node.name()).isEmpty();
    }
    Map<String, String> perChannel = new TreeMap<>();
    // A load run that gave up waiting for a delivery reports the transaction lost; the chains,
    // checked first, tell a transaction that was lost from one ordered after the run gave up.
    Map<String, List<String>> loadProblems = new TreeMap<>();
    long fullBlocks = 0;
    long largest = 0;
    for (String channel : channels) {
      BackgroundLoad load = loads.get(channel);
      if (!load.problems().isEmpty()) {
        loadProblems.put(channel, load.problems());
      }
      Chain chain =
          cluster.identicalChains(
              channel, cluster.nodes(), client, tls, cluster.signatures(channel));
      Map<String, Integer> counts = chain.txIdCounts();
      assertThat(counts.entrySet().stream().filter(e -> e.getValue() != 1).toList())
          .as("%s: transactions ordered more than once", channel)
          .isEmpty();
      Set<String> missing = new HashSet<>(load.accepted());
      missing.removeAll(counts.keySet());
      assertThat(missing)
          .as("%s: acknowledged by a quorum but not in the chain", channel)
          .isEmpty();
      long full = chain.dataBytes().stream().filter(bytes -> bytes >= FULL_BLOCK_BYTES).count();
      long max = chain.dataBytes().stream().mapToLong(Long::longValue).max().orElse(0);
      fullBlocks += full;
      largest = Math.max(largest, max);
      long submitted = load.runs().stream().mapToLong(BackgroundLoad.Run::submitted).sum();
      perChannel.put(
          channel,
          String.format(
              Locale.ROOT,
              "height %d, %d blocks >= 9 MB, largest %.1f MB, %d submitted, %d acknowledged",
              chain.headers().size(),
              full,
              max / 1e6,
              submitted,
              load.accepted().size()));
    }
    sampling = false;
    sampler.join();
    Map<String, Long> peakMib = new TreeMap<>();
    peakRss.forEach((node, bytes) -> peakMib.put(node, bytes >> 20));
    note(
        "ten channels: {}\nper channel:\n  {}\npeak RSS per node (MiB) {} against the plan's {} MiB"
            + " ({} MiB heap, {} MiB outside it); largest block {} bytes",
        figures,
        String.join("\n  ", perChannel.entrySet().stream().map(Object::toString).toList()),
        peakMib,
        plan.memoryBytes() >> 20,
        plan.heapBytes() >> 20,
        plan.outsideHeapBytes() >> 20,
        largest);
    assertThat(loadProblems)
        .as(
            "load runs with problems (every transaction a quorum acknowledged is in its chain once:"
                + " what they call lost was ordered after they stopped waiting)")
        .isEmpty();
    assertThat(fullBlocks).as("blocks of at least 9 MB cut (%s)", perChannel).isPositive();
    assertThat(peakRss.values())
        .as("peak RSS per node (%s MiB) within the plan's memory", peakMib)
        .allMatch(bytes -> bytes <= plan.memoryBytes());
  }

  /**
   * Writes the genesis blocks of channels 2 to 10 beside the first one's, for the same consenters
   * and ports (the generator keeps the crypto material it finds), and names all ten.
   */
  private static List<String> channels(Path dir, NetworkSummary network) {
    NetworkSummary.Node first = network.nodes().getFirst();
    PortPlan ports =
        new PortPlan(
            first.broadcastPort(), first.clusterPort(), first.adminPort(), first.operationsPort());
    List<String> channels = new ArrayList<>(List.of(ProcessCluster.CHANNEL));
    IntStream.rangeClosed(2, CHANNELS).mapToObj(i -> "channel" + i).forEach(channels::add);
    for (String channel : channels.subList(1, channels.size())) {
      LocalNetwork.generate(dir, new LocalNetworkSpec(channel, 4, ports, 500));
    }
    return channels;
  }

  /**
   * The node a quorum reports as leader of the most channels (all ten start in view 0, so one node
   * is every channel's primary until a view change).
   */
  private NodeProcess primary(List<String> channels) throws InterruptedException {
    Map<Long, Integer> led = new HashMap<>();
    ProcessCluster.awaitCondition(
        "a quorum agrees on each channel's leader",
        () -> {
          led.clear();
          for (String channel : channels) {
            Map<Long, Integer> votes = new HashMap<>();
            for (NodeProcess node : cluster.nodes()) {
              if (node.isAlive()) {
                cluster
                    .gauge(node, "consensus_smartbft_view_leader_id", channel)
                    .ifPresent(id -> votes.merge(id, 1, Integer::sum));
              }
            }
            var agreed =
                votes.entrySet().stream().filter(e -> e.getValue() >= cluster.quorum()).findAny();
            if (agreed.isEmpty()) {
              return false;
            }
            led.merge(agreed.get().getKey(), 1, Integer::sum);
          }
          return true;
        });
    long id = led.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    note("leaders (consenter id: channels led) {}", led);
    return cluster.byConsenterId(id);
  }

  /**
   * Waits until every channel is {@link #BLOCKS} blocks past the height it had now on the highest
   * of {@code nodes}; returns how long that took, for the figures.
   */
  private String awaitBlocks(List<String> channels, List<NodeProcess> nodes, String when)
      throws InterruptedException {
    long start = System.nanoTime();
    Map<String, Long> targets = new HashMap<>();
    for (String channel : channels) {
      targets.put(channel, highest(nodes, channel) + BLOCKS);
    }
    ProcessCluster.awaitCondition(
        "every channel orders " + BLOCKS + " blocks " + when,
        PHASE,
        () -> {
          for (String channel : channels) {
            if (highest(nodes, channel) < targets.get(channel)) {
              return false;
            }
          }
          return true;
        });
    String took =
        String.format(Locale.ROOT, "%.1f s for %d blocks on every channel", seconds(start), BLOCKS);
    note("{}: {} (heights {})", when, took, targets);
    return took;
  }

  /**
   * Waits until {@code node} has, on every channel, the height the others had when it came back;
   * returns how long after {@code since} that was.
   */
  private String caughtUp(
      List<String> channels, NodeProcess node, List<NodeProcess> others, long since)
      throws InterruptedException {
    Map<String, Long> targets = new HashMap<>();
    for (String channel : channels) {
      targets.put(channel, highest(others, channel));
    }
    ProcessCluster.awaitCondition(
        node.name() + " catches up on every channel",
        PHASE,
        () -> {
          for (String channel : channels) {
            if (cluster.height(node, channel) < targets.get(channel)) {
              return false;
            }
          }
          return true;
        });
    String took =
        String.format(
            Locale.ROOT, "%s caught up on every channel %.1f s after", node.name(), seconds(since));
    note("{} (heights {})", took, targets);
    return took;
  }

  /** The highest height of {@code channel} that any running node of {@code nodes} answers. */
  private long highest(List<NodeProcess> nodes, String channel) throws InterruptedException {
    long height = 0;
    for (NodeProcess node : nodes) {
      try {
        if (node.isAlive()) {
          height = Math.max(height, cluster.height(node, channel));
        }
      } catch (IOException | AssertionError e) {
        LOG.debug("{} answers no height of {}", node.name(), channel, e);
      }
    }
    return height;
  }

  private List<NodeProcess> othersThan(NodeProcess node) {
    return cluster.nodes().stream().filter(n -> n != node).toList();
  }

  /** The highest peak RSS (VmHWM) of each node over all its runs, sampled every second. */
  private void sampleRss() {
    while (sampling) {
      for (NodeProcess node : cluster.nodes()) {
        node.rss().ifPresent(rss -> peakRss.merge(node.name(), rss.peak(), Math::max));
      }
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Logs {@code format} with {@code arguments} and appends it to the test's own log file. */
  private void note(String format, Object... arguments) {
    String line = org.slf4j.helpers.MessageFormatter.arrayFormat(format, arguments).getMessage();
    SuiteNotes.append(LOG, notes, line);
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
