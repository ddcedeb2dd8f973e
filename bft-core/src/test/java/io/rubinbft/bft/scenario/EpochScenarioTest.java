package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.sim.Cluster;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cluster of an epoch anchored at sequence 13, off the checkpoint grid (K = 4, L = 16): it orders
 * from 14 on, chained to the anchor; checkpoints fall at 17, 21, ...; view changes, state transfer
 * from memory and from the ledger, and recovery from the WAL all start from the anchor.
 */
class EpochScenarioTest {

  private static final long ANCHOR = 13;
  private static final ReplicaConfig CONFIG = Cluster.simConfig(4);

  /** An earlier epoch's decision at 13; its certificate is the old epoch's, never checked here. */
  static Decision anchor(long sequence) {
    Proposal proposal =
        new Proposal(
            sequence,
            new Digest(SimKeys.sha256(new byte[] {7})),
            List.of(),
            new SimApplication().assemble(sequence, List.of(), null));
    return new Decision(proposal, SimKeys.digestOf(proposal), 0, List.of());
  }

  @Test
  void ordersAfterTheAnchorAndMovesTheWindowFromIt() {
    Decision anchor = anchor(ANCHOR);
    Cluster cluster = Cluster.inEpoch(4, 51, anchor);
    cluster.submit(120);
    cluster.runUntilAllDecided(4000);
    cluster.runTicks(50);

    assertThat(cluster.executedAt(0, ANCHOR + 1).proposal().previous()).isEqualTo(anchor.digest());
    long low = cluster.status(0).lowWatermark();
    assertThat(low).isGreaterThan(ANCHOR + CONFIG.window());
    assertThat((low - ANCHOR) % CONFIG.checkpointInterval()).isZero();
    for (int replica = 1; replica < 4; replica++) {
      assertThat(cluster.status(replica).lowWatermark()).isEqualTo(low);
    }
  }

  /** The view changes carry the anchor as their stable checkpoint, with no proof. */
  @Test
  void viewChangeBeforeTheFirstCheckpointStartsFromTheAnchor() {
    Cluster cluster = Cluster.inEpoch(4, 52, anchor(ANCHOR));
    cluster.crash(0);
    cluster.submit(20);
    cluster.runUntilAllDecided(4000);
    assertThat(cluster.status(1).view()).isPositive();
    assertThat(cluster.status(1).lowWatermark()).isEqualTo(ANCHOR);
  }

  @Test
  void laggingReplicaCatchesUpInsideTheEpoch() {
    Cluster cluster = Cluster.inEpoch(4, 53, anchor(ANCHOR));
    cluster.isolate(3);
    cluster.submit(100);
    cluster.runUntilAllDecided(4000);
    cluster.heal();
    cluster.runUntilAllDecided(4000);
    assertThat(cluster.decidedAt(3)).isEqualTo(100);
  }

  /** Down from the epoch's start for longer than the others retain: it catches up from ledgers. */
  @Test
  void replicaDownLongerThanRetainedDecisionsCatchesUpFromTheLedger() {
    long outage = CONFIG.retainedDecisions() + 3L * CONFIG.checkpointInterval();
    Cluster cluster = Cluster.inEpoch(4, 54, anchor(ANCHOR));
    cluster.crash(3);
    cluster.submit((int) (outage * CONFIG.batchMaxCount()));
    cluster.runUntilAllDecided(20_000);
    assertThat(cluster.status(0).lastDelivered()).isGreaterThanOrEqualTo(ANCHOR + outage);
    cluster.restart(3);
    cluster.runUntilAllDecided(20_000);
    assertThat(cluster.status(3).lastDelivered()).isEqualTo(cluster.status(0).lastDelivered());
  }

  @Test
  void allReplicasRecoverInsideTheEpoch() {
    Cluster cluster = Cluster.inEpoch(4, 55, anchor(ANCHOR));
    cluster.submit(40);
    cluster.runTicks(10);
    for (int replica = 0; replica < 4; replica++) {
      cluster.crash(replica);
    }
    cluster.runTicks(20);
    for (int replica = 0; replica < 4; replica++) {
      cluster.restart(replica);
      assertThat(cluster.status(replica).lowWatermark()).isGreaterThanOrEqualTo(ANCHOR);
    }
    cluster.runUntilAllDecided(4000);
    assertThat(cluster.decidedAt(2)).isEqualTo(40);
  }
}
