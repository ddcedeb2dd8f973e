package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * A {@link ProcessCluster} of four node processes with the launcher's memory defaults (its default
 * plan's heap, exit on heap exhaustion), opened to the adversary suite ({@code
 * io.rubinbft.orderer.adversary}) by node index: the ports and keys of each node, killing one to
 * impersonate it, loads of Fabric gateway-style transactions to the honest ones, and the check of
 * their chains. It remembers every transaction a quorum acknowledged, to check at the end that none
 * was lost.
 */
// close() waits for what it started to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
public final class ClusterUnderAttack implements AutoCloseable {

  /** How long a condition the cluster should reach may take (ProcessCluster.PATIENCE). */
  public static final Duration PATIENCE = ProcessCluster.PATIENCE;

  private final ProcessCluster cluster;
  private final EnvelopeFactory client;
  private final Set<NodeProcess> impersonated = new HashSet<>();
  private final Set<String> acknowledged = new HashSet<>();

  private ClusterUnderAttack(ProcessCluster cluster) {
    this.cluster = cluster;
    this.client = cluster.client();
  }

  /** Generates, starts and joins four nodes under {@code dir}. */
  public static ClusterUnderAttack start(Path dir, int maxMessageCount)
      throws IOException, GeneralSecurityException, InterruptedException {
    try {
      ProcessCluster cluster = ProcessCluster.create(dir, maxMessageCount, false);
      cluster.nodes().forEach(NodeProcess::useLauncherMemory);
      ClusterUnderAttack attacked = new ClusterUnderAttack(cluster);
      cluster.start(cluster.nodes());
      cluster.joinAll();
      return attacked;
    } catch (io.rubinbft.orderer.channel.InvalidConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  public NetworkSummary network() {
    return cluster.network();
  }

  public String channel() {
    return ProcessCluster.CHANNEL;
  }

  public int size() {
    return cluster.nodes().size();
  }

  /** The index of the node with consenter id {@code id}. */
  public int indexOfConsenter(long id) {
    return cluster.nodes().indexOf(cluster.byConsenterId(id));
  }

  /** The consenter id the honest nodes agree is the leader, once they agree. */
  public long agreedLeader() throws InterruptedException {
    Set<Long> seen = new HashSet<>();
    ProcessCluster.awaitCondition(
        "the honest nodes agree on a leader",
        () -> {
          seen.clear();
          for (NodeProcess node : honestNodes()) {
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

  /** Kills node {@code index} (SIGKILL) for good: the adversary holds its keys from now on. */
  public void impersonate(int index) throws InterruptedException {
    NodeProcess node = cluster.node(index);
    node.kill();
    impersonated.add(node);
  }

  /**
   * Gives node {@code index}, impersonated until now, its honest process back: starts it on its
   * data and waits until it is healthy and caught up with the highest honest node.
   */
  public void restore(int index) throws IOException, InterruptedException {
    NodeProcess node = cluster.node(index);
    if (!impersonated.remove(node)) {
      throw new IllegalArgumentException("node " + index + " is not impersonated");
    }
    cluster.start(List.of(node));
    long highest = 0;
    for (NodeProcess other : honestNodes()) {
      if (other != node) {
        highest = Math.max(highest, cluster.height(other));
      }
    }
    long target = highest;
    ProcessCluster.awaitCondition(
        node + " caught up to height " + target, () -> cluster.height(node) >= target);
  }

  /** The indexes of the nodes not impersonated. */
  public List<Integer> honest() {
    List<Integer> honest = new ArrayList<>();
    for (int i = 0; i < size(); i++) {
      if (!impersonated.contains(cluster.node(i))) {
        honest.add(i);
      }
    }
    return honest;
  }

  public boolean alive(int index) {
    return cluster.node(index).isAlive();
  }

  public Path log(int index) {
    return cluster.node(index).log();
  }

  public long height(int index) throws IOException, InterruptedException {
    return cluster.height(cluster.node(index));
  }

  /**
   * Sends {@code transactions} envelopes of {@code payloadBytes} to every honest node as Fabric's
   * gateway does (a fresh Broadcast stream per envelope and node, SUCCESS from a quorum, Deliver
   * following the chain) and asserts that the run passed within {@code deadline}: everything a
   * quorum acknowledged was delivered, once, in blocks with a quorum of consenter signatures.
   */
  public LoadReport load(int transactions, int payloadBytes, int streams, Duration deadline)
      throws IOException, InterruptedException {
    LoadReport report =
        cluster.load(
            honestNodes(),
            new LoadSpec(
                ProcessCluster.CHANNEL,
                transactions,
                payloadBytes,
                streams,
                cluster.quorum(),
                OptionalDouble.empty(),
                deadline),
            client,
            tls());
    synchronized (acknowledged) {
      acknowledged.addAll(report.delivery().acceptedTxIds());
    }
    return report;
  }

  /**
   * Reads every honest node's chain through Deliver once all reached the highest one's height,
   * checks that they are valid and identical, and that every transaction a load got a quorum's
   * acknowledgement for is in it exactly once.
   *
   * @return the number of acknowledged transactions checked
   */
  public int assertNoAcknowledgedTransactionLost() throws IOException, InterruptedException {
    Map<String, Integer> counts = identicalChainsTxIds();
    assertThat(counts.values()).allMatch(count -> count == 1, "every tx id occurs once");
    synchronized (acknowledged) {
      assertThat(counts.keySet()).containsAll(acknowledged);
      return acknowledged.size();
    }
  }

  /**
   * Reads every honest node's chain through Deliver once all reached the highest one's height,
   * checks that they are valid (a quorum of consenter signatures on every block) and identical
   * block by block, and returns how often each transaction id occurs in it.
   */
  public Map<String, Integer> identicalChainsTxIds() throws IOException, InterruptedException {
    return cluster.identicalChains(honestNodes(), client, tls()).txIdCounts();
  }

  /** The network's client user, who may write to the channel. */
  public EnvelopeFactory client() {
    return client;
  }

  /** The Broadcast/Deliver client's TLS: server-only, trusting the orderers' TLS CA. */
  public ClientTlsFiles tls() {
    return ClientTlsFiles.serverOnly(cluster.ordererTlsCa());
  }

  /** A failed test's message with the paths of every node log. */
  public static TestExecutionExceptionHandler logsOnFailure(Supplier<ClusterUnderAttack> under) {
    return ProcessCluster.logsOnFailure(() -> under.get() == null ? null : under.get().cluster);
  }

  @Override
  public void close() throws InterruptedException {
    cluster.close();
  }

  private List<NodeProcess> honestNodes() {
    return honest().stream().map(cluster::node).toList();
  }
}
