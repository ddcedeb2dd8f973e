package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.metrics.ClusterMetricsCheck;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four orderer nodes on loopback ({@link LocalCluster}) order transactions into identical ledgers,
 * report healthy on /healthz, and after all four restart they resume from their ledgers and WALs.
 */
class OrdererNodeTest {

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void fourNodesJoinOrderAndResumeAfterAllRestart() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();

    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    LoadReport first = cluster.submit(client, 20);
    cluster.awaitTransactions(20);
    // The load generator read the newest block once, then followed the chain from there.
    new ClusterMetricsCheck(cluster.nodes, LocalCluster.CHANNEL)
        .verify(20, 1 + first.delivery().blocks());
    for (OrdererNode node : cluster.nodes) {
      assertThat(LocalCluster.healthz(node, "").statusCode()).isEqualTo(200);
    }

    cluster.stopAll();
    cluster.startAll();
    cluster.submit(client, 10);
    cluster.awaitTransactions(30);

    List<BlockHeader> reference = headers(cluster.nodes.getFirst());
    for (OrdererNode node : cluster.nodes) {
      assertThat(headers(node)).isEqualTo(reference);
    }
  }

  private static List<BlockHeader> headers(OrdererNode node) {
    return LocalCluster.blocks(node).stream().map(Block::getHeader).toList();
  }
}
