package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The main test: many seeds, each a random fault mix checked by the invariant checker after every
 * step. Run one seed with {@code -Dsim.seed=N}; any number with {@code -Dsim.seeds=N} (the {@code
 * long} variant defaults to 100,000), e.g.
 *
 * <pre>./test.sh -pl bft-core -Plong -Dtest=SimulationSweepTest -Dsim.seeds=100000</pre>
 */
class SimulationSweepTest {

  private static final int DEFAULT_SEEDS = 2000;

  @Test
  void sweep() {
    String single = System.getProperty("sim.seed");
    if (single != null) {
      SweepRun.Outcome outcome = runReporting(Long.parseLong(single));
      assertThat(outcome.ticksToDecide()).isLessThanOrEqualTo(SweepRun.LIVENESS_BOUND_TICKS);
      return;
    }
    sweep(Long.getLong("sim.first", 1), Integer.getInteger("sim.seeds", DEFAULT_SEEDS));
  }

  @Test
  @Tag("long")
  void longSweep() {
    sweep(Long.getLong("sim.first", 1_000_000), Integer.getInteger("sim.seeds", 100_000));
  }

  private static void sweep(long first, int seeds) {
    Map<FaultMix, Integer> runs = new EnumMap<>(FaultMix.class);
    long slowest = 0;
    long slowestSeed = first;
    for (long seed = first; seed < first + seeds; seed++) {
      SweepRun.Outcome outcome = runReporting(seed);
      runs.merge(outcome.mix(), 1, Integer::sum);
      if (outcome.ticksToDecide() > slowest) {
        slowest = outcome.ticksToDecide();
        slowestSeed = seed;
      }
    }
    System.out.printf(
        "sweep: %d seeds from %d, mixes %s, slowest recovery %d ticks (seed %d)%n",
        seeds, first, runs, slowest, slowestSeed);
    assertThat(runs.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(seeds);
  }

  private static SweepRun.Outcome runReporting(long seed) {
    try {
      return SweepRun.run(seed);
    } catch (AssertionError | RuntimeException failure) {
      throw new AssertionError(
          "seed "
              + seed
              + " failed: "
              + failure.getMessage()
              + "\nreplay: ./test.sh -pl bft-core -Dtest=SimulationSweepTest -Dsim.seed="
              + seed,
          failure);
    }
  }
}
