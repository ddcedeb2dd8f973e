package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.consensus.Admission;
import io.rubinbft.orderer.consensus.ForwardCounts;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.service.SubmitOutcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client envelope held by one backup only (Fabric's peer CLI sends to a single {@code -o}) is
 * forwarded to the primary after the channel's request_forward_timeout and ordered without a view
 * change; a forwarded envelope that fails the backup's check is dropped and counted; envelopes
 * every node got and ordered in time are never forwarded. Four nodes on loopback ({@link
 * LocalCluster}), channel defaults (2 s forward timeout, 20 s request timeout).
 */
class RequestForwardingNodeTest {

  @TempDir Path dir;

  private LocalCluster cluster;
  private EnvelopeFactory client;

  @BeforeEach
  void start() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void anEnvelopeSentToOneBackupIsOrderedByAllWithoutAViewChange() throws Exception {
    OrdererNode backup = backup();
    EnvelopeFactory.SignedEnvelope tx = transaction("to one backup");

    assertThat(runtime(backup).submit(tx.envelope(), tx.txId()))
        .isInstanceOf(SubmitOutcome.Accepted.class);

    cluster.awaitTransactions(1);
    for (OrdererNode node : cluster.nodes) {
      assertThat(host(node).status().view()).as(cluster.describeNodes()).isZero();
      assertThat(host(node).progress().viewChanges()).isZero();
    }
    assertThat(host(backup).forwards().toPrimary()).isEqualTo(1);
    assertThat(host(primary()).forwards().received(ForwardCounts.Received.ADMITTED)).isPositive();
  }

  @Test
  void aForwardedEnvelopeWithABadSignatureIsDroppedAndCounted() throws Exception {
    OrdererNode backup = backup();
    EnvelopeFactory.SignedEnvelope tx = transaction("forged");
    Envelope forged =
        tx.envelope().toBuilder().setSignature(flipLastByte(tx.envelope().getSignature())).build();

    // As a Byzantine backup would: its pool takes bytes no Broadcast check ever saw.
    assertThat(host(backup).submit(tx.txId(), forged.toByteArray()).get(5, TimeUnit.SECONDS))
        .isInstanceOf(Admission.Admitted.class);

    ForwardCounts atPrimary = host(primary()).forwards();
    awaitCount(atPrimary, c -> c.received(ForwardCounts.Received.INVALID) == 1);
    assertThat(atPrimary.received(ForwardCounts.Received.ADMITTED)).isZero();
    assertThat(host(primary()).status().pendingRequests()).isZero();
    for (OrdererNode node : cluster.nodes) {
      assertThat(LocalCluster.ledger(node).height()).isEqualTo(1);
    }
  }

  @Test
  void envelopesEveryNodeGotAndOrderedInTimeAreNotForwarded() throws Exception {
    cluster.submit(client, 40);
    cluster.awaitTransactions(40);

    for (OrdererNode node : cluster.nodes) {
      assertThat(host(node).forwards().toPrimary()).isZero();
      assertThat(host(node).forwards().toAll()).isZero();
      assertThat(host(node).forwards().receivedByLabel().values()).containsOnly(0L);
    }
  }

  private EnvelopeFactory.SignedEnvelope transaction(String data) {
    return client.transaction(LocalCluster.CHANNEL, data.getBytes(StandardCharsets.UTF_8));
  }

  private OrdererNode backup() {
    return cluster.nodes.stream().filter(n -> !isPrimary(n)).findFirst().orElseThrow();
  }

  private OrdererNode primary() {
    return cluster.nodes.stream().filter(RequestForwardingNodeTest::isPrimary).findFirst().get();
  }

  private static boolean isPrimary(OrdererNode node) {
    ReplicaHost host = host(node);
    return host.status().primary() % host.consenters() == host.epoch().self();
  }

  private static ChannelRuntime runtime(OrdererNode node) {
    return node.channels().runtime(LocalCluster.CHANNEL).orElseThrow();
  }

  private static ReplicaHost host(OrdererNode node) {
    return runtime(node).host().orElseThrow();
  }

  private static ByteString flipLastByte(ByteString signature) {
    byte[] bytes = signature.toByteArray();
    bytes[bytes.length - 1] ^= 1;
    return ByteString.copyFrom(bytes);
  }

  /** Waits (bounded) for forwarded envelopes to reach the receiver's count. */
  private static void awaitCount(ForwardCounts counts, Predicate<ForwardCounts> reached)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!reached.test(counts) && System.nanoTime() < deadline) {
      Thread.sleep(Duration.ofMillis(50));
    }
    assertThat(reached.test(counts)).as("received %s", counts.receivedByLabel()).isTrue();
  }
}
