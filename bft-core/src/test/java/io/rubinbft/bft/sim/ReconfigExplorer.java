package io.rubinbft.bft.sim;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.LongStream;

/**
 * Runs {@link ReconfigScenario}s on {@link ReconfigCluster}, whose nodes are hosted by the
 * production host (bft-core's {@code EpochHost}) around the production {@code Replica}: the member
 * set grows and shrinks 4 -> 5 -> 7 -> 4 under client load while each switch is disturbed as the
 * scenario says. Checked after every step by the cluster's {@link InvariantChecker}: (1) agreement,
 * (2) unique certificate per height (every commit any node emitted, in any epoch, counts), (3)
 * gap-free in-order execution, (5) no request ordered twice, (6) one view (every signature of a
 * decision's certificate is a commit signature of the view it names, by a member of its epoch); and
 * (4) liveness: every switch takes effect and, once the network heals, every live member executes
 * every request, within {@link ReconfigSweep#BOUND} ticks each.
 *
 * <p>A scenario is deterministic: its seed is fixed, the network delivers in order after a delay of
 * 1-2 ticks and drops nothing, so its id alone replays it.
 */
final class ReconfigExplorer {

  /** How long a short cut lasts: less than a request timeout (60 ticks in the simulator). */
  static final int SHORT_TICKS = 15;

  /** How long a long cut lasts: past a request timeout and a view change (20 more ticks). */
  static final int LONG_TICKS = 120;

  private static final long SEED = 17;

  /** Scenarios of one chunk run in parallel; outcomes are taken in order. */
  private static final int CHUNK = 64;

  /** Coprime with {@link ReconfigScenario#size()}: index i runs scenario i x stride mod size. */
  private static final long STRIDE = 7_919;

  private ReconfigExplorer() {}

  /** What a search found: how many scenarios ran, the first failing one and its violation. */
  record Result(long runs, String failing, String violation, long nanos) {

    String describe() {
      double seconds = nanos / 1e9;
      return String.format(
          "reconfig: %,d scenarios in %.1f s (%.0f/s), %s",
          runs,
          seconds,
          runs / Math.max(seconds, 1e-9),
          failing == null ? "no violation" : "VIOLATION in " + failing + ": " + violation);
    }
  }

  /** Runs one scenario; the violation, or null when none. */
  static String run(ReconfigScenario scenario) {
    try {
      execute(scenario);
      return null;
    } catch (AssertionError | RuntimeException failure) {
      return String.valueOf(failure.getMessage());
    }
  }

  /**
   * Runs {@code count} scenarios from index {@code from} of the scrambled order (index i runs
   * scenario i x {@link #STRIDE} mod size, so any stretch samples the whole space); stops at the
   * first violation.
   */
  static Result exhaustive(long from, long count, Consumer<String> log) {
    long size = ReconfigScenario.size();
    if (gcd(STRIDE, size) != 1) {
      throw new IllegalStateException("stride " + STRIDE + " shares a factor with " + size);
    }
    long start = System.nanoTime();
    long runs = 0;
    for (long chunk = from; chunk < from + count; chunk += CHUNK) {
      long end = Math.min(chunk + CHUNK, from + count);
      List<ReconfigScenario> scenarios =
          LongStream.range(chunk, end)
              .mapToObj(i -> ReconfigScenario.at(Math.floorMod(i * STRIDE, size)))
              .toList();
      List<String> violations = scenarios.parallelStream().map(ReconfigExplorer::run).toList();
      for (int i = 0; i < scenarios.size(); i++) {
        runs++;
        if (violations.get(i) != null) {
          return new Result(
              runs, scenarios.get(i).id(), violations.get(i), System.nanoTime() - start);
        }
      }
      if ((chunk - from) % (CHUNK * 16) == 0 && chunk > from) {
        log.accept(
            new Result(runs, null, null, System.nanoTime() - start).describe()
                + "; resume with -Dexplorer.from="
                + end);
      }
    }
    return new Result(runs, null, null, System.nanoTime() - start);
  }

  private static void execute(ReconfigScenario scenario) {
    ReconfigCluster cluster = ReconfigCluster.of(4, 7, SEED);
    cluster.faults(0, 0, 2);
    List<List<Integer>> sets =
        List.of(
            ReconfigSweep.range(5),
            ReconfigSweep.range(7),
            ReconfigScenario.FINAL_SETS.get(scenario.finalSet()));
    for (int i = 0; i < sets.size(); i++) {
      ReconfigScenario.Disturbance disturbance = scenario.switches().get(i);
      List<Integer> members = sets.get(i);
      cluster.submit(3);
      cluster.runTicks(5);
      boolean disturbs = disturbance.target() != '-';
      if (disturbs && !disturbance.atSwitch()) {
        cluster.isolate(target(cluster, disturbance));
      }
      cluster.changeMembers(members);
      cluster.submit(2);
      if (disturbs && disturbance.atSwitch()) {
        cluster.runUntilMembers(members, ReconfigSweep.BOUND);
        cluster.isolate(target(cluster, disturbance));
      }
      cluster.runTicks(disturbance.lasting() ? LONG_TICKS : SHORT_TICKS);
      cluster.heal();
      cluster.runUntilMembers(members, ReconfigSweep.BOUND);
    }
    cluster.heal();
    cluster.submit(3);
    cluster.runUntilAllDecided(ReconfigSweep.BOUND);
    if (!cluster.newestMembers().equals(sets.getLast())) {
      throw new InvariantViolation(
          "ended with members " + cluster.newestMembers() + ", not " + sets.getLast());
    }
  }

  private static int target(ReconfigCluster cluster, ReconfigScenario.Disturbance disturbance) {
    return disturbance.target() == 'p' ? cluster.leader() : disturbance.target() - '0';
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
