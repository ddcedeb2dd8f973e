package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.sim.Cluster;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A window counted in bytes that binds before the window in sequences does (bft-core/README.md
 * "Window in bytes"): the simulator's requests are ~20 bytes, its batches up to 4 of them, and the
 * window's bytes leave room for a full batch (1 KiB) and ~100 bytes in flight, so a primary keeps a
 * few proposals in flight and checkpoints fall by bytes (about every second proposal) before the
 * fourth sequence. Each cluster checks agreement, order and exactly-once on every step.
 */
class WindowBytesScenarioTest {

  private static final int TOTAL = 200;

  /**
   * Everything decided; the stable checkpoint moves although the window never fills, and it moves
   * to checkpoints off the K grid (they fall by bytes).
   */
  @Test
  void aClusterWhoseWindowBytesBindDecidesEverything() {
    Cluster cluster = Cluster.of(4, 71, bytesConfig());
    cluster.submit(TOTAL);
    Set<Long> stable = new TreeSet<>();
    for (int tick = 0; tick < 6_000 && cluster.decidedAt(0) < TOTAL; tick++) {
      cluster.runTicks(1);
      stable.add(cluster.status(0).lowWatermark());
    }
    cluster.runUntilAllDecided(6_000);
    assertThat(stable)
        .as("stable checkpoints of replica 0; " + cluster.replay())
        .anyMatch(h -> h % bytesConfig().checkpointInterval() != 0);
    cluster.runTicks(50);
    for (int replica = 0; replica < 4; replica++) {
      var status = cluster.status(replica);
      assertThat(cluster.decidedAt(replica)).as(cluster.replay()).isEqualTo(TOTAL);
      assertThat(status.lowWatermark()).as(cluster.replay()).isPositive();
      assertThat(status.drops()).as(cluster.replay()).doesNotContainKey("over window bytes");
    }
  }

  /**
   * A backup cut off while the others move on drops nothing it should keep once back: it catches up
   * by state transfer beyond the others' stable checkpoint, moves its own there and takes part in
   * every quorum again (another replica is down afterwards).
   */
  @Test
  void aLaggingBackupCatchesUpAndVotesAgain() {
    Cluster cluster = Cluster.of(4, 73, bytesConfig());
    cluster.isolate(3);
    cluster.submit(TOTAL);
    cluster.runUntilAllDecided(6_000);
    cluster.heal();
    cluster.runUntilAllDecided(6_000);
    cluster.runTicks(100);
    assertThat(cluster.status(3).lowWatermark())
        .as(cluster.replay())
        .isEqualTo(cluster.status(0).lowWatermark());
    cluster.crash(0);
    cluster.submit(40);
    cluster.runUntilAllDecided(6_000);
    assertThat(cluster.decidedAt(3)).as(cluster.replay()).isEqualTo(TOTAL + 40);
  }

  private static ReplicaConfig bytesConfig() {
    return Cluster.windowBytesConfig(4);
  }
}
