package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.sim.Cluster;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Under light load (fewer requests arrive during one agreement than a batch holds) the batch
 * boundaries do not depend on the count limit: the primary proposes at once when nothing is in
 * flight, and the count only decides when a full batch may go early. So a channel with blocks of
 * 500 cuts exactly the blocks one with blocks of 100 cuts (the end-to-end difference at 200 tx/s in
 * bench/journal/2026-11-21-15-blocks-500-vs-100.md is not the batching rule's).
 */
class LightLoadBatchingScenarioTest {

  private static final int TICKS = 300;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void blocksOf500AreCutLikeBlocksOf100(long seed) {
    List<Integer> of100 = batchSizes(seed, 100);
    List<Integer> of500 = batchSizes(seed, 500);

    assertThat(of500).isEqualTo(of100);
    assertThat(of100).allMatch(size -> size < 100);
    assertThat(of100).as("batched while busy").anyMatch(size -> size > 1);
  }

  /** Two requests per tick, messages delayed up to 3 ticks: several arrive per agreement. */
  private static List<Integer> batchSizes(long seed, int maxCount) {
    ReplicaConfig config =
        new ReplicaConfig(
            4,
            0,
            maxCount,
            1 << 20,
            20,
            16,
            4,
            2000,
            1024,
            600,
            200,
            80,
            64,
            10_000,
            Decisions.MAX_ANSWER_BYTES);
    Cluster cluster = Cluster.of(4, seed, config);
    cluster.faults(0, 0, 3);
    for (int tick = 0; tick < TICKS; tick++) {
      cluster.submit(2);
      cluster.runTicks(1);
    }
    cluster.runUntilAllDecided(1_000);
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
