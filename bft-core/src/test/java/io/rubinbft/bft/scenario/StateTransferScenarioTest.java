package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.sim.Attack;
import io.rubinbft.bft.sim.Cluster;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** State transfer: a replica that fell behind the window catches up from a single peer. */
class StateTransferScenarioTest {

  @Test
  void laggingReplicaCatchesUpBeyondTheWindow() {
    Cluster cluster = Cluster.of(4, 31);
    cluster.isolate(3);
    cluster.submit(100);
    cluster.runUntilAllDecided(3000);
    cluster.runTicks(50);
    assertThat(cluster.status(0).lowWatermark()).isGreaterThan(Cluster.simConfig(4).window());
    cluster.heal();
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(3)).isEqualTo(100);
  }

  /**
   * A replica that caught up by state transfer moves its low watermark to the others' and votes
   * again: with another replica down, the cluster needs it for every quorum.
   */
  @Test
  void caughtUpReplicaTakesPartAgain() {
    Cluster cluster = Cluster.of(4, 33);
    cluster.isolate(3);
    cluster.submit(160);
    cluster.runUntilAllDecided(6000);
    cluster.heal();
    cluster.runUntilAllDecided(3000);
    cluster.runTicks(100);
    assertThat(cluster.status(3).lowWatermark()).isEqualTo(cluster.status(0).lowWatermark());
    cluster.crash(0);
    cluster.submit(20);
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(3)).isEqualTo(180);
  }

  /**
   * After an outage longer than the decisions the others keep in memory (64 in the simulator, plus
   * five checkpoints), a restarted replica catches up from the others' ledgers ({@code
   * ArchiveRead}), then moves its low watermark and votes again.
   */
  @Test
  void replicaDownLongerThanRetainedDecisionsCatchesUpFromTheLedger() {
    ReplicaConfig config = Cluster.simConfig(4);
    long outage = config.retainedDecisions() + 5L * config.checkpointInterval();
    Cluster cluster = Cluster.of(4, 34);
    cluster.crash(3);
    cluster.submit((int) (outage * config.batchMaxCount()));
    cluster.runUntilAllDecided(20_000);
    assertThat(cluster.status(0).lastDelivered()).isGreaterThanOrEqualTo(outage);
    cluster.restart(3);
    cluster.runUntilAllDecided(5000);
    cluster.runTicks(100);
    assertThat(cluster.status(3).lowWatermark()).isEqualTo(cluster.status(0).lowWatermark());
    cluster.crash(0);
    cluster.submit(20);
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(3)).isEqualTo(cluster.decidedAt(1));
  }

  /** The same through a Byzantine source that lies in its archive answers too. */
  @Test
  void lyingArchiveIsDetectedAndAnotherIsTried() {
    ReplicaConfig config = Cluster.simConfig(4);
    long outage = config.retainedDecisions() + 5L * config.checkpointInterval();
    Cluster cluster = Cluster.of(4, 35);
    cluster.makeByzantine(0, Set.of(Attack.LYING_STATE_TRANSFER));
    cluster.crash(3);
    cluster.submit((int) (outage * config.batchMaxCount()));
    cluster.runUntilAllDecided(20_000);
    cluster.restart(3);
    cluster.runUntilAllDecided(5000);
    assertThat(cluster.decidedAt(3)).isEqualTo(cluster.decidedAt(1));
  }

  @Test
  void lyingSourceIsDetectedAndAnotherIsTried() {
    Cluster cluster = Cluster.of(4, 32);
    cluster.makeByzantine(0, Set.of(Attack.LYING_STATE_TRANSFER));
    cluster.isolate(3);
    cluster.submit(60);
    cluster.runUntilAllDecided(3000);
    cluster.heal();
    // At first replica 3 hears only from the liar, so that is where it fetches from.
    cluster.cut(1, 3);
    cluster.cut(2, 3);
    cluster.runTicks(100);
    assertThat(cluster.status(3).drops()).containsKey("bad decision");
    assertThat(cluster.status(3).lastDelivered()).isZero();
    cluster.heal();
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(3)).isEqualTo(60);
  }
}
