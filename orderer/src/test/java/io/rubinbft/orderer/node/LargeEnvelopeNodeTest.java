package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.service.SubmitOutcome;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Envelopes of several MB under the channel's AbsoluteMaxBytes of 10 MB (issue 18): view changes
 * name proposals by digest, so such envelopes fit every consensus message and are ordered, also
 * when the primary dies with them in flight and a view change re-proposes them. Four nodes on
 * loopback ({@link LocalCluster}, channel defaults: 20 s request timeout). Before, the proposal cap
 * of 4 consenters was about 125 KB and each was refused with "request too large".
 */
class LargeEnvelopeNodeTest {

  private static final int ENVELOPE_DATA_BYTES = 3 << 20;
  private static final Random RANDOM = new Random(18);

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void envelopesOfSeveralMegabytesAreOrderedAlsoThroughAViewChange() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());

    submitToAll(client, cluster.nodes, 1);
    cluster.awaitTransactions(1);

    // The primary dies right after it got two more: they are proposed, prepared or not at all
    // when it stops; then one more reaches the other three only. Ordering them all needs a view
    // change, whose view changes and new view name the in-flight proposals by digest.
    int primary = primaryIndex();
    List<OrdererNode> others = new ArrayList<>(cluster.nodes);
    others.remove(primary);
    submitToAll(client, cluster.nodes, 2);
    cluster.stop(primary);
    submitToAll(client, others, 1);
    LocalCluster.awaitTransactions(4, others);
    for (OrdererNode node : others) {
      assertThat(host(node).status().view()).as(cluster.describeNodes()).isPositive();
    }

    cluster.restart(primary);
    cluster.awaitTransactions(4);
    List<BlockHeader> reference = headers(cluster.nodes.getFirst());
    for (OrdererNode node : cluster.nodes) {
      assertThat(headers(node)).isEqualTo(reference);
    }
    long largest =
        LocalCluster.blocks(cluster.nodes.getFirst()).stream()
            .flatMap(block -> block.getData().getDataList().stream())
            .mapToLong(envelope -> envelope.size())
            .max()
            .orElse(0);
    assertThat(largest).isGreaterThan(ENVELOPE_DATA_BYTES);
  }

  /**
   * Submits {@code count} envelopes of several MB to every node in {@code to}, as a gateway does.
   */
  private static void submitToAll(EnvelopeFactory client, List<OrdererNode> to, int count) {
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[ENVELOPE_DATA_BYTES];
      RANDOM.nextBytes(data);
      EnvelopeFactory.SignedEnvelope tx = client.transaction(LocalCluster.CHANNEL, data);
      for (OrdererNode node : to) {
        assertThat(runtime(node).submit(tx.envelope(), tx.txId()))
            .as("a %d-byte envelope", tx.envelope().getSerializedSize())
            .isInstanceOf(SubmitOutcome.Accepted.class);
      }
    }
  }

  private int primaryIndex() {
    for (int i = 0; i < cluster.nodes.size(); i++) {
      ReplicaHost host = host(cluster.nodes.get(i));
      if (host.status().primary() % host.consenters() == host.epoch().self()) {
        return i;
      }
    }
    throw new AssertionError("no primary: " + cluster.describeNodes());
  }

  private static ChannelRuntime runtime(OrdererNode node) {
    return node.channels().runtime(LocalCluster.CHANNEL).orElseThrow();
  }

  private static ReplicaHost host(OrdererNode node) {
    return runtime(node).host().orElseThrow();
  }

  private static List<BlockHeader> headers(OrdererNode node) {
    return LocalCluster.blocks(node).stream().map(Block::getHeader).toList();
  }
}
