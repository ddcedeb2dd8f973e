package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.sim.Cluster;
import org.junit.jupiter.api.Test;

/** OSDI'99 section 4.3: checkpoints, garbage collection and the watermark window. */
class CheckpointScenarioTest {

  @Test
  void stableCheckpointsMoveTheWindow() {
    Cluster cluster = Cluster.of(4, 21);
    cluster.submit(120);
    cluster.runUntilAllDecided(3000);
    cluster.runTicks(50);
    for (int replica = 0; replica < 4; replica++) {
      var status = cluster.status(replica);
      int interval = Cluster.simConfig(4).checkpointInterval();
      assertThat(status.lowWatermark()).isPositive();
      assertThat(status.lowWatermark() % interval).isZero();
      assertThat(status.lastDelivered() - status.lowWatermark()).isLessThan(interval);
      assertThat(status.highWatermark() - status.lowWatermark())
          .isEqualTo(Cluster.simConfig(4).window());
    }
  }
}
