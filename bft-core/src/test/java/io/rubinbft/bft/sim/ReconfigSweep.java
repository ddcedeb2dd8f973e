package io.rubinbft.bft.sim;

import java.util.List;
import java.util.Random;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;

/**
 * What the reconfiguration simulation tests share: running a scenario over seeds (every failure
 * names its scenario, seed and replay command) and the steps scenarios are made of.
 */
final class ReconfigSweep {

  /** Seeds per scenario in the default suite ({@code -Dsim.seeds=N} for more). */
  static final int DEFAULT_SEEDS = 30;

  static final long BOUND = 8000;

  private static final int WINDOW_OF_REQUESTS =
      Cluster.simConfig(4).window() * Cluster.simConfig(4).batchMaxCount() + 4;

  private ReconfigSweep() {}

  /**
   * Runs {@code scenario} over {@value #DEFAULT_SEEDS} seeds from {@code first} ({@code
   * -Dsim.seeds=N}, {@code -Dsim.first=N}), or the one seed {@code -Dsim.seed=N}; returns how many
   * seeds ran.
   */
  static int sweep(String testClass, String test, LongConsumer scenario, long first) {
    String single = System.getProperty("sim.seed");
    if (single != null) {
      run(testClass, test, scenario, Long.parseLong(single), 1);
      return 1;
    }
    int seeds = Integer.getInteger("sim.seeds", DEFAULT_SEEDS);
    run(testClass, test, scenario, Long.getLong("sim.first", first), seeds);
    return seeds;
  }

  /** Runs seeds {@code first} .. {@code first + seeds - 1}; {@code test} names the test method. */
  static void run(String testClass, String test, LongConsumer scenario, long first, int seeds) {
    for (long seed = first; seed < first + seeds; seed++) {
      try {
        scenario.accept(seed);
      } catch (AssertionError | RuntimeException failure) {
        throw new AssertionError(
            test
                + " seed "
                + seed
                + " failed: "
                + failure.getMessage()
                + "\nreplay: ./test.sh -pl bft-core -Dtest="
                + testClass
                + "#"
                + test
                + " -Dsim.seed="
                + seed,
            failure);
      }
    }
    System.out.printf("reconfig %s: seeds %d..%d passed%n", test, first, first + seeds - 1);
  }

  /** Load, the change, more load, until the change took effect, and a little longer. */
  static void change(ReconfigCluster cluster, Random random, List<Integer> members) {
    cluster.submit(5 + random.nextInt(10));
    cluster.runTicks(random.nextInt(60));
    cluster.changeMembers(members);
    cluster.submit(5 + random.nextInt(10));
    cluster.runUntilMembers(members, BOUND);
    cluster.runTicks(random.nextInt(150));
  }

  /**
   * Heals the network, then more load than one window of the newest epoch holds (its low watermark
   * must move from the anchor), then every request must be executed everywhere.
   */
  static void healAndCheck(ReconfigCluster cluster) {
    cluster.heal();
    cluster.storageFaults(0, 0);
    cluster.faults(0, 0, 1);
    cluster.submit(WINDOW_OF_REQUESTS);
    cluster.runUntilAllDecided(BOUND);
  }

  static List<Integer> range(int count) {
    return IntStream.range(0, count).boxed().toList();
  }

  static List<Integer> sorted(List<Integer> members) {
    return members.stream().sorted().toList();
  }
}
