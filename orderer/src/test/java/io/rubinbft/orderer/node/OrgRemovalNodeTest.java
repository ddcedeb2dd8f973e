package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.configtx.ComputedUpdates;
import io.rubinbft.orderer.configtx.ConfigEdits;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.ApplicationOrg;
import io.rubinbft.orderer.testing.ClientCalls;
import io.rubinbft.orderer.testing.ClientTlsFiles;
import io.rubinbft.orderer.testing.DeliverCalls;
import io.rubinbft.orderer.testing.FollowingDeliver;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application org's life on a running 4-node cluster with mutual TLS on Broadcast/Deliver: added
 * by a config update, it connects with its own TLS certificate, reads the chain from block 0 (made
 * before it was added) and transacts without any node restarting; removed by another, it gets
 * FORBIDDEN on its next Broadcast and Deliver, its open Deliver stream ends with FORBIDDEN at the
 * config block that removes it, and its new connections fail in the TLS handshake, on every node,
 * while the remaining org goes on.
 */
class OrgRemovalNodeTest {

  private static final Duration WAIT = Duration.ofMinutes(2);

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void anAddedOrgTransactsAndARemovedOrgIsForbiddenAtItsBlockOnEveryNode() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.requireClientCertificates();
    cluster.startAndJoin();
    ClientTlsFiles org1Tls = ClientTlsFiles.mutual(cluster.ordererTlsCa(), clientTlsDir());
    ApplicationOrg org2 = ApplicationOrg.generate(dir.resolve("org2"), "Org2", "org2.example.com");
    ClientTlsFiles org2Tls = ClientTlsFiles.mutual(cluster.ordererTlsCa(), org2.userTls());
    EnvelopeFactory org2User = new EnvelopeFactory(org2.user(), Clock.systemUTC());
    assertThat(connects(org2Tls)).as("Org2 before it is added").isFalse();

    Envelope add =
        update(
            ConfigEdits.withApplicationOrg(cluster.config(), org2.name(), org2.group()),
            List.of(cluster.clientOrgAdmin()));
    try (OrdererChannels org1 = cluster.connect(org1Tls)) {
      assertThat(ClientCalls.broadcast(org1.channels().get(0), add).getStatus())
          .isEqualTo(Status.SUCCESS);
    }
    cluster.awaitConfigSequence(1);
    cluster.submit(org2User, 20, org2Tls);

    try (OrdererChannels org2Connections = cluster.connect(org2Tls)) {
      List<ManagedChannel> nodes = org2Connections.channels();
      for (ManagedChannel node : nodes) {
        assertThat(
                ClientCalls.deliverNewest(
                    node, org2User, LocalCluster.CHANNEL, org2Tls.certificateHash()))
            .isEqualTo(Status.SUCCESS);
        // Fabric's onboarding of a new org: its admin fetches block 0 to join its peers, which
        // read the chain from there. Every block is judged by the channel's current config.
        for (SigningIdentity reader : List.of(org2.user(), org2.admin())) {
          DeliverCalls.Answer genesis = readGenesis(node, reader, org2Tls);
          assertThat(genesis.status())
              .as(reader.certificate().getSubjectX500Principal() + " reads block 0")
              .isEqualTo(Status.SUCCESS);
          assertThat(genesis.blocks())
              .extracting(b -> b.getHeader().getNumber())
              .containsExactly(0L);
        }
      }
      FollowingDeliver following =
          FollowingDeliver.open(
              nodes.get(3), org2User, LocalCluster.CHANNEL, org2Tls.certificateHash(), WAIT);
      Envelope remove =
          update(
              ConfigEdits.withoutApplicationOrg(cluster.config(), org2.name()),
              List.of(cluster.clientOrgAdmin(), org2.admin()));
      HttpResponse<String> removed = cluster.update(cluster.nodes.get(1), remove.toByteArray());
      assertThat(removed.statusCode()).as(removed.body()).isEqualTo(201);
      cluster.awaitConfigSequence(2);
      long removalBlock =
          cluster
              .nodes
              .get(3)
              .channels()
              .runtime(LocalCluster.CHANNEL)
              .orElseThrow()
              .config()
              .blockNumber();

      assertThat(following.end(WAIT)).isEqualTo(Status.FORBIDDEN);
      assertThat(following.received()).last().isEqualTo(removalBlock - 1);
      for (ManagedChannel node : nodes) {
        Envelope transaction = org2User.transaction(LocalCluster.CHANNEL, new byte[100]).envelope();
        assertThat(ClientCalls.broadcast(node, transaction).getStatus())
            .isEqualTo(Status.FORBIDDEN);
        assertThat(
                ClientCalls.deliverNewest(
                    node, org2User, LocalCluster.CHANNEL, org2Tls.certificateHash()))
            .isEqualTo(Status.FORBIDDEN);
      }
    }
    assertThat(connects(org2Tls)).as("Org2 after it was removed").isFalse();
    cluster.submit(new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC()), 20, org1Tls);
  }

  /** {@code reader}'s request for block 0 alone, as {@code peer channel fetch 0} makes it. */
  private static DeliverCalls.Answer readGenesis(
      ManagedChannel node, SigningIdentity reader, ClientTlsFiles tls) throws InterruptedException {
    Envelope seek =
        new EnvelopeFactory(reader, Clock.systemUTC())
            .seek(LocalCluster.CHANNEL, SeekInfos.range(0, 0), tls.certificateHash());
    return DeliverCalls.request(node, seek, WAIT);
  }

  /** Whether a new connection with {@code tls} gets through the TLS handshake to every node. */
  private boolean connects(ClientTlsFiles tls) throws Exception {
    try (OrdererChannels connections = cluster.connect(tls)) {
      return connections.channels().stream().allMatch(ClientCalls::answers);
    }
  }

  private Path clientTlsDir() {
    return cluster.network.client().tlsCert().getParent();
  }

  /** The update from the current config to {@code wanted}, signed by {@code admins}. */
  private Envelope update(Config wanted, List<SigningIdentity> admins) {
    return SignedUpdates.signed(
        ComputedUpdates.compute(LocalCluster.CHANNEL, cluster.config(), wanted), admins);
  }
}
