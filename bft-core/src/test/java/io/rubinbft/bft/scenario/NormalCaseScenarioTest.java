package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.sim.Cluster;
import org.junit.jupiter.api.Test;

/** OSDI'99 section 4.2, the normal case: pre-prepare, prepare, commit, with pipelining. */
class NormalCaseScenarioTest {

  @Test
  void fourReplicasDecideEveryRequest() {
    Cluster cluster = Cluster.of(4, 1);
    cluster.submit(40);
    cluster.runUntilAllDecided(500);
    for (int replica = 0; replica < 4; replica++) {
      assertThat(cluster.decidedAt(replica)).isEqualTo(40);
      assertThat(cluster.status(replica).view()).isZero();
    }
  }
}
