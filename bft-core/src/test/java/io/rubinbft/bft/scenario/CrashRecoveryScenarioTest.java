package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.sim.Cluster;
import org.junit.jupiter.api.Test;

/** Crash recovery from the write-ahead log: votes persisted before they leave survive restarts. */
class CrashRecoveryScenarioTest {

  @Test
  void allReplicasCrashAndRestartMidRun() {
    Cluster cluster = Cluster.of(4, 41);
    cluster.submit(30);
    cluster.runTicks(8);
    for (int replica = 0; replica < 4; replica++) {
      cluster.crash(replica);
    }
    cluster.runTicks(20);
    for (int replica = 0; replica < 4; replica++) {
      cluster.restart(replica);
    }
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(2)).isEqualTo(30);
  }

  @Test
  void lostUnsyncedWritesNeverBreakSafety() {
    Cluster cluster = Cluster.of(4, 42);
    cluster.storageFaults(0.05);
    for (int round = 0; round < 20; round++) {
      cluster.submit(3);
      cluster.runTicks(15);
      for (int replica = 0; replica < 4; replica++) {
        cluster.restart(replica);
      }
    }
    cluster.storageFaults(0);
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(0)).isEqualTo(60);
  }
}
