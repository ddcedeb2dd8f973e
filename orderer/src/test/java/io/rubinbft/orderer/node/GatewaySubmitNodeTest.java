package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.ClientCalls;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import io.rubinbft.orderer.tools.loadgen.SubmitMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four orderer nodes on loopback ({@link LocalCluster}) under Fabric's gateway's submission pattern
 * (issue 19): every envelope to every node on a fresh Broadcast stream, a quorum of 3 counted by
 * Fabric's rule. A copy reaching a node after the others ordered its transaction must not fail the
 * submit, nothing is ordered twice, and another envelope under an ordered tx id is refused.
 */
class GatewaySubmitNodeTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  /** Progress, not throughput: a few hundred transactions, 16 concurrent submitters. */
  @Test
  void gatewaySubmitsNeverFailAndNothingIsOrderedTwice() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());

    LoadReport report =
        cluster.run(
            client,
            new LoadSpec(
                LocalCluster.CHANNEL,
                300,
                300,
                16,
                3,
                OptionalDouble.empty(),
                PATIENCE,
                SubmitMode.GATEWAY));

    String why = report.format() + "\n" + cluster.describeNodes();
    assertThat(report.failedSubmits()).as(why).isZero();
    assertThat(report.delivery().duplicates()).as(why).isZero();
    assertThat(report.delivery().delivered()).as(why).isEqualTo(300);
    assertThat(report.passed()).as(why).isTrue();
    cluster.awaitTransactions(300);
  }

  @Test
  void copiesAreTakenOtherEnvelopesUnderTheirTxIdRefusedAndNoneOrderedAgainAfterARestart()
      throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    EnvelopeFactory.SignedEnvelope tx = client.transaction(LocalCluster.CHANNEL, new byte[] {1});
    Envelope impostor = sameTxIdOtherData(client, tx.envelope());

    try (OrdererChannels connections = cluster.connect()) {
      for (ManagedChannel node : connections.channels()) {
        assertThat(ClientCalls.broadcast(node, tx.envelope()).getStatus())
            .isEqualTo(Status.SUCCESS);
      }
      cluster.awaitTransactions(1);
      for (ManagedChannel node : connections.channels()) {
        assertThat(ClientCalls.broadcast(node, tx.envelope()).getStatus())
            .isEqualTo(Status.SUCCESS);
        BroadcastResponse refused = ClientCalls.broadcast(node, impostor);
        assertThat(refused.getStatus()).isEqualTo(Status.BAD_REQUEST);
        assertThat(refused.getInfo())
            .isEqualTo("tx id " + tx.txId() + " was ordered in block 1 with a different envelope");
      }
    }

    cluster.stopAll();
    cluster.startAll();
    try (OrdererChannels connections = cluster.connect()) {
      for (ManagedChannel node : connections.channels()) {
        assertThat(ClientCalls.broadcast(node, tx.envelope()).getStatus())
            .isEqualTo(Status.SUCCESS);
      }
      Envelope marker = client.transaction(LocalCluster.CHANNEL, new byte[] {2}).envelope();
      for (ManagedChannel node : connections.channels()) {
        assertThat(ClientCalls.broadcast(node, marker).getStatus()).isEqualTo(Status.SUCCESS);
      }
    }
    cluster.awaitTransactions(2);
    for (OrdererNode node : cluster.nodes) {
      assertThat(copiesIn(node, tx.envelope())).isEqualTo(1);
    }
  }

  /**
   * In an epoch after the genesis one (a BatchSize change starts one), after all four restarted:
   * the replica's memory of decided ids starts empty there, the ledger still answers.
   */
  @Test
  void aTransactionOrderedBeforeANewEpochIsNotOrderedAgainAfterARestart() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    EnvelopeFactory.SignedEnvelope tx = client.transaction(LocalCluster.CHANNEL, new byte[] {1});
    Envelope newEpoch =
        SignedUpdates.signed(
            ConfigUpdateNodeTest.batchSizeUpdate(cluster.config(), 7),
            List.of(cluster.ordererAdmin()));
    try (OrdererChannels connections = cluster.connect()) {
      for (ManagedChannel node : connections.channels()) {
        assertThat(ClientCalls.broadcast(node, tx.envelope()).getStatus())
            .isEqualTo(Status.SUCCESS);
      }
      cluster.awaitTransactions(1);
      assertThat(ClientCalls.broadcast(connections.channels().getFirst(), newEpoch).getStatus())
          .isEqualTo(Status.SUCCESS);
    }
    cluster.awaitConfigSequence(1);

    cluster.stopAll();
    cluster.startAll();
    for (OrdererNode node : cluster.nodes) {
      assertThat(node.channels().runtime(LocalCluster.CHANNEL).orElseThrow().host())
          .as("the replica recovered in the epoch of config block 2")
          .hasValueSatisfying(host -> assertThat(host.epoch().epoch()).isEqualTo(2));
    }
    try (OrdererChannels connections = cluster.connect()) {
      for (ManagedChannel node : connections.channels()) {
        assertThat(ClientCalls.broadcast(node, tx.envelope()).getStatus())
            .isEqualTo(Status.SUCCESS);
      }
      Envelope marker = client.transaction(LocalCluster.CHANNEL, new byte[] {2}).envelope();
      for (ManagedChannel node : connections.channels()) {
        assertThat(ClientCalls.broadcast(node, marker).getStatus()).isEqualTo(Status.SUCCESS);
      }
    }
    cluster.awaitTransactions(3);
    for (OrdererNode node : cluster.nodes) {
      assertThat(copiesIn(node, tx.envelope())).isEqualTo(1);
    }
  }

  private static long copiesIn(OrdererNode node, Envelope envelope) {
    return LocalCluster.blocks(node).stream()
        .skip(1)
        .map(Block::getData)
        .flatMap(data -> data.getDataList().stream())
        .filter(bytes -> bytes.equals(envelope.toByteString()))
        .count();
  }

  /** An envelope under {@code original}'s channel header (tx id included) with other data. */
  private static Envelope sameTxIdOtherData(EnvelopeFactory client, Envelope original)
      throws Exception {
    ChannelHeader header =
        ChannelHeader.parseFrom(
            Payload.parseFrom(original.getPayload()).getHeader().getChannelHeader());
    return client.sign(header, ByteString.copyFrom(new byte[] {9}));
  }
}
