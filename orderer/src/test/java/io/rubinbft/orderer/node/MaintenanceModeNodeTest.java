package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.configtx.ComputedUpdates;
import io.rubinbft.orderer.configtx.ConfigEdits;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.hyperledger.fabric.protos.orderer.ConsensusType.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Maintenance mode on a running 4-node cluster, as an operator uses it: the orderer admin enters it
 * with an update of ConsensusType.State alone; then every node refuses normal transactions with
 * Fabric's 503, refuses an update that leaves maintenance and changes something else, and serves
 * Deliver to orderer readers only; the admin leaves it and transactions are ordered again.
 */
class MaintenanceModeNodeTest {

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void enteringMaintenanceRefusesNormalTransactionsUntilItIsLeft() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    SigningIdentity user = cluster.clientIdentity();
    EnvelopeFactory users = new EnvelopeFactory(user, Clock.systemUTC());
    EnvelopeFactory ordererAdmin = new EnvelopeFactory(cluster.ordererAdmin(), Clock.systemUTC());
    cluster.submit(users, 10);
    cluster.awaitTransactions(10);

    assertThat(cluster.broadcast(0, stateUpdate(State.STATE_MAINTENANCE)).getStatus())
        .isEqualTo(Status.SUCCESS);
    cluster.awaitConfigSequence(1);

    for (int node = 0; node < 4; node++) {
      BroadcastResponse refused =
          cluster.broadcast(
              node, users.transaction(LocalCluster.CHANNEL, new byte[100]).envelope());
      assertThat(refused.getStatus()).as("node %d", node).isEqualTo(Status.SERVICE_UNAVAILABLE);
      assertThat(refused.getInfo()).isEqualTo("normal transactions are rejected: maintenance mode");
    }
    assertThat(cluster.deliverNewest(1, users)).isEqualTo(Status.FORBIDDEN);
    assertThat(cluster.deliverNewest(1, ordererAdmin)).isEqualTo(Status.SUCCESS);

    Config current = cluster.config();
    Envelope leavingAndMore =
        SignedUpdates.signed(
            ComputedUpdates.compute(
                LocalCluster.CHANNEL,
                current,
                ConfigEdits.maxMessageCount(
                    ConfigEdits.consensusState(current, State.STATE_NORMAL), 3)),
            List.of(cluster.ordererAdmin()));
    HttpResponse<String> refusedUpdate =
        cluster.update(cluster.nodes.get(2), leavingAndMore.toByteArray());
    assertThat(refusedUpdate.statusCode()).isEqualTo(400);
    assertThat(refusedUpdate.body())
        .contains(
            "config update for existing channel did not pass maintenance checks: config"
                + " transaction inspection failed: config update contain more then just the"
                + " ConsensusType value in the Orderer group");

    assertThat(cluster.broadcast(3, stateUpdate(State.STATE_NORMAL)).getStatus())
        .isEqualTo(Status.SUCCESS);
    cluster.awaitConfigSequence(2);
    cluster.submit(users, 10);
    cluster.awaitTransactions(10 + 1 + 1 + 10);
    assertThat(cluster.deliverNewest(1, users)).isEqualTo(Status.SUCCESS);
  }

  /** ConsensusType.State set to {@code state} alone, signed by the orderer admin. */
  private Envelope stateUpdate(State state) {
    Config current = cluster.config();
    return SignedUpdates.signed(
        ComputedUpdates.compute(
            LocalCluster.CHANNEL, current, ConfigEdits.consensusState(current, state)),
        List.of(cluster.ordererAdmin()));
  }
}
