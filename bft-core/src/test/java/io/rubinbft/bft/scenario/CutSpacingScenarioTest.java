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
 * The primary's cut spacing ({@link ReplicaConfig#cutSpacingTicks}) under a trickle of requests
 * (one per tick, an agreement taking about three ticks): without it a block holds what arrived
 * during one agreement; with it blocks hold what arrived within one spacing, a lone request on an
 * idle cluster is still decided as fast as without it, and a full batch does not wait.
 */
class CutSpacingScenarioTest {

  private static final int SPACING = 10;
  private static final int MAX_COUNT = 100;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aTrickleIsCutOncePerSpacing(long seed) {
    List<Integer> spaced = trickle(seed, SPACING);
    List<Integer> unspaced = trickle(seed, 0);

    int requests = unspaced.stream().mapToInt(Integer::intValue).sum();
    assertThat(spaced.stream().mapToInt(Integer::intValue).sum()).isEqualTo(requests);
    // One cut per SPACING ticks at most, plus the first (at once) and the remainder at the end.
    int bound = requests / SPACING + 2;
    assertThat(unspaced.size()).as("blocks without spacing: %s", unspaced).isGreaterThan(bound);
    assertThat(spaced.size())
        .as("blocks with spacing %d: %s (replay: seed %d)", SPACING, spaced, seed)
        .isLessThanOrEqualTo(bound);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aLoneRequestOnAnIdleClusterIsNotDelayed(long seed) {
    assertThat(loneRequestTicks(seed, SPACING))
        .as("ticks to decide a lone request (replay: seed %d)", seed)
        .isEqualTo(loneRequestTicks(seed, 0));
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aBatchFullByCountDoesNotWaitForTheSpacing(long seed) {
    // A spacing far beyond the run: after the first cut only full batches can be cut.
    Cluster cluster = Cluster.of(4, seed, config(4, 1 << 20, 1_000));
    cluster.submit(1);
    cluster.runTicks(5);
    cluster.submit(4);
    cluster.runUntilAllDecided(50);

    assertThat(batchSizes(cluster)).as("replay: seed %d", seed).containsExactly(1, 4);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void aBatchFullByBytesDoesNotWaitForTheSpacing(long seed) {
    Cluster cluster = Cluster.of(4, seed, config(1_000, 1024, 1_000));
    cluster.submit(1);
    cluster.runTicks(5);
    cluster.submit(300);
    cluster.runTicks(50);

    List<Integer> sizes = batchSizes(cluster);
    assertThat(sizes).as("replay: seed %d", seed).hasSizeGreaterThan(2);
    assertThat(sizes.subList(1, sizes.size() - 1))
        .as("full batches cut before the spacing passed")
        .allMatch(size -> size > 1);
  }

  /** One request per tick for 100 ticks, messages delivered on the next tick. */
  private static List<Integer> trickle(long seed, int spacing) {
    Cluster cluster = Cluster.of(4, seed, config(MAX_COUNT, 1 << 20, spacing));
    for (int tick = 0; tick < 100; tick++) {
      cluster.submit(1);
      cluster.runTicks(1);
    }
    cluster.runUntilAllDecided(1_000);
    return batchSizes(cluster);
  }

  /** Ticks to decide one request submitted after the cluster decided one and idled. */
  private static long loneRequestTicks(long seed, int spacing) {
    Cluster cluster = Cluster.of(4, seed, config(MAX_COUNT, 1 << 20, spacing));
    cluster.submit(1);
    cluster.runUntilAllDecided(100);
    cluster.runTicks(2L * SPACING);
    cluster.submit(1);
    return cluster.runUntilAllDecided(100);
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

  private static ReplicaConfig config(int maxCount, long maxBytes, int spacing) {
    return new ReplicaConfig(
            4,
            0,
            maxCount,
            maxBytes,
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
            Decisions.MAX_ANSWER_BYTES)
        .withCutSpacingTicks(spacing);
  }
}
