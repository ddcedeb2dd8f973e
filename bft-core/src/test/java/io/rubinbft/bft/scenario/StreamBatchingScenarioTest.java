package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.sim.Cluster;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Batching that grows with load while an idle cluster still cuts at once: after its last proposal
 * is decided, a primary cuts the next partial batch only once the linger (a sixteenth of the batch
 * timeout) has passed since that decision, so a steady stream fills blocks over an agreement and a
 * linger instead of one agreement; a lone request arriving later than that goes at once.
 *
 * <p>Here the batch timeout is 32 ticks, so the linger is 2 ticks; with messages delivered on the
 * next tick the primary decides a proposal 2 ticks after it cut it (every replica: 3).
 */
class StreamBatchingScenarioTest {

  private static final int TICKS = 200;

  private static final ReplicaConfig CONFIG =
      new ReplicaConfig(4, 0, 100, 1 << 20, 32, 16, 4, 2000, 1024, 600, 200, 80, 64, 10_000);

  /** One cut per agreement (2 ticks) and linger (2 ticks); cutting at once makes one per 3. */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aSteadyStreamIsCutOncePerAgreementAndLinger(long seed) {
    Cluster cluster = Cluster.of(4, seed, CONFIG);
    cluster.faults(0, 0, 0);
    for (int tick = 0; tick < TICKS; tick++) {
      cluster.submit(1);
      cluster.runTicks(1);
    }
    cluster.runUntilAllDecided(1_000);

    List<Integer> sizes = batchSizes(cluster);
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(TICKS);
    assertThat(sizes.size())
        .as("blocks for %d requests, one a tick; replay: %s", TICKS, cluster.replay())
        .isLessThanOrEqualTo(TICKS / 4 + 1);
  }

  /** Requests far apart are each proposed at once: as fast as the first on a fresh cluster. */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void loneRequestsOnAnIdleClusterGoAtOnce(long seed) {
    Cluster cluster = Cluster.of(4, seed, CONFIG);
    cluster.faults(0, 0, 0);
    cluster.submit(1);
    long first = cluster.runUntilAllDecided(100);

    for (int i = 0; i < 5; i++) {
      cluster.runTicks(10);
      cluster.submit(1);
      assertThat(cluster.runUntilAllDecided(100))
          .as("ticks to decide lone request %d; replay: %s", i, cluster.replay())
          .isEqualTo(first);
    }
    assertThat(batchSizes(cluster)).hasSize(6).containsOnly(1);
  }

  private static List<Integer> batchSizes(Cluster cluster) {
    List<Integer> sizes = new ArrayList<>();
    for (long sequence = 1; ; sequence++) {
      Decision decision = cluster.executedAt(0, sequence);
      if (decision == null) {
        return sizes;
      }
      sizes.add(decision.proposal().requests().size());
    }
  }
}
