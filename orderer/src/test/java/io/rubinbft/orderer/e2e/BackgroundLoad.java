package io.rubinbft.orderer.e2e;

import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.EpochSignatureCheck;
import io.rubinbft.orderer.tools.loadgen.LoadGenerator;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gateway-style load that runs while a fault happens: back-to-back runs of the load generator
 * (every envelope to every orderer on its own Broadcast stream, a quorum's decision, Deliver
 * following the chain), each on fresh connections, until {@link #stop}. A run that cannot start (no
 * orderer answers) is retried after a second. It collects every transaction a quorum acknowledged,
 * and every run's lost, duplicated or unverified deliveries.
 */
final class BackgroundLoad {

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundLoad.class);

  /** One finished run: when it ended, what it delivered, how long it took. */
  record Run(long endNanos, long delivered, double seconds, long submitted, long accepted) {}

  private final ProcessCluster cluster;
  private final EnvelopeFactory client;
  private final ClientTlsFiles tls;
  private final LoadSpec chunk;
  private final SignatureCheck signatures;
  private final Set<String> accepted = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private final List<Run> runs = new CopyOnWriteArrayList<>();
  private volatile boolean stopping;
  private volatile OrdererChannels current;
  private Thread thread;
  // One check for every run: a fresh one would fetch the whole chain again from the cluster before
  // its first block, through whichever node is down.
  private EpochSignatureCheck check;

  /**
   * @param transactionsPerRun envelopes per load generator run
   * @param payloadBytes payload per envelope
   * @param streams concurrent submitters
   * @param ratePerSecond the submission rate of each run
   */
  BackgroundLoad(
      ProcessCluster cluster,
      EnvelopeFactory client,
      ClientTlsFiles tls,
      int transactionsPerRun,
      int payloadBytes,
      int streams,
      double ratePerSecond) {
    this(
        cluster,
        client,
        tls,
        new LoadSpec(
            ProcessCluster.CHANNEL,
            transactionsPerRun,
            payloadBytes,
            streams,
            cluster.quorum(),
            OptionalDouble.of(ratePerSecond),
            ProcessCluster.PATIENCE),
        cluster::signatures);
  }

  /**
   * Back-to-back runs of {@code chunk} (its channel, size, streams and rate), every run's blocks
   * checked by one {@code signatures} check of that channel.
   */
  BackgroundLoad(
      ProcessCluster cluster,
      EnvelopeFactory client,
      ClientTlsFiles tls,
      LoadSpec chunk,
      SignatureCheck signatures) {
    this.cluster = cluster;
    this.client = client;
    this.tls = tls;
    this.chunk = chunk;
    this.signatures = signatures;
  }

  /** A fresh check of a channel's block signatures (it follows the channel's config blocks). */
  interface SignatureCheck {
    EpochSignatureCheck make() throws java.io.IOException, InvalidConfigException;
  }

  synchronized void start() {
    stopping = false;
    thread = Thread.ofPlatform().name("background-load").daemon().start(this::loop);
  }

  /** Lets the current run finish (every acknowledged envelope delivered or timed out) and stops. */
  synchronized void stop() throws InterruptedException {
    stopping = true;
    if (thread != null) {
      thread.join();
      thread = null;
    }
  }

  /**
   * Lets the current run's connections dial at once: after its orderers were down, gRPC waits a
   * reconnect back-off that grows to two minutes, and the run would wait that long for the
   * deliveries of what it had submitted before they went down.
   */
  void reconnectNow() {
    OrdererChannels connections = current;
    if (connections != null) {
      connections.channels().forEach(io.grpc.ManagedChannel::resetConnectBackoff);
    }
  }

  /** Every transaction a quorum acknowledged, over all runs so far. */
  Set<String> accepted() {
    return new HashSet<>(accepted);
  }

  /** Lost, duplicated or unverified deliveries of any run so far. */
  List<String> problems() {
    return List.copyOf(problems);
  }

  List<Run> runs() {
    return new ArrayList<>(runs);
  }

  /** Transactions delivered per second by the runs that ended in [{@code from}, {@code to}). */
  double rate(long fromNanos, long toNanos) {
    long delivered = 0;
    double seconds = 0;
    for (Run run : runs) {
      if (run.endNanos() >= fromNanos && run.endNanos() < toNanos) {
        delivered += run.delivered();
        seconds += run.seconds();
      }
    }
    return seconds == 0 ? 0 : delivered / seconds;
  }

  private EpochSignatureCheck check() throws java.io.IOException, InvalidConfigException {
    if (check == null) {
      check = signatures.make();
    }
    return check;
  }

  private void loop() {
    while (!stopping) {
      long started = System.nanoTime();
      try (OrdererChannels connections = cluster.connect(cluster.nodes(), tls)) {
        current = connections;
        LoadReport report =
            new LoadGenerator(chunk, client, connections.channels(), tls.certificateHash(), check())
                .run();
        accepted.addAll(report.delivery().acceptedTxIds());
        if (report.lost() > 0
            || report.delivery().duplicates() > 0
            || report.problem().isPresent()) {
          problems.add(report.format());
          LOG.warn("load run with problems:\n{}", report.format());
        }
        runs.add(
            new Run(
                System.nanoTime(),
                report.delivery().delivered(),
                (System.nanoTime() - started) / 1e9,
                report.submitted(),
                report.accepted()));
        LOG.info(
            "load run on {}: {} submitted, {} accepted, {} delivered, refusals {}",
            chunk.channel(),
            report.submitted(),
            report.accepted(),
            report.delivery().delivered(),
            report.refusals());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException | java.io.IOException | InvalidConfigException e) {
        // No orderer answered the run's first question (the height): the cluster is down.
        LOG.info("load run could not start: {}", e.toString());
        try {
          Thread.sleep(1_000);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }
}
