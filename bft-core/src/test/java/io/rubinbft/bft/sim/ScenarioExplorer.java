package io.rubinbft.bft.sim;

import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Searches the {@link Scenario} space systematically, running each scenario on the production
 * replica ({@link ScenarioRunner}).
 *
 * <ul>
 *   <li>{@link #search}: the fork hunt, best-first toward two quorums at one sequence, each
 *       abstract state (who is in which view, who decided and signed what, names normalised) once.
 *   <li>{@link #exhaustive}: every scenario with a fixed number of rounds, each once, in a
 *       scrambled order (index i runs scenario (i * stride) mod size) so that any stretch of
 *       indices samples the whole space; a run resumes from its printed checkpoint index.
 * </ul>
 */
final class ScenarioExplorer {

  /** What a search did: how many scenarios it ran, and the first violation, if any. */
  record Result(
      long runs, long deepest, String failing, String violation, long millis, long cpuMillis) {

    double rate() {
      return runs * 1000.0 / Math.max(1, millis);
    }

    String describe() {
      return String.format(
          "%,d scenarios (up to %d rounds) in %.1f s, %.0f scenarios/s (%.0f per CPU second)%s",
          runs,
          deepest,
          millis / 1000.0,
          rate(),
          runs * 1000.0 / Math.max(1, cpuMillis),
          failing == null ? ", no violation" : ", VIOLATION in " + failing + ": " + violation);
    }
  }

  private static final int CHUNK = 256;
  private static final long CHECKPOINT_EVERY = 10_240;

  private ScenarioExplorer() {}

  private record Candidate(Scenario scenario, long danger, long order) {}

  /**
   * The fork hunt: best-first toward a fork, checking (1) agreement and (2) unique certificate
   * only. A scenario is extended by every round choice only if its last round brought some sequence
   * closer to two quorums ({@link ScenarioRunner.Outcome#danger}) and it left an abstract state no
   * scenario run before it left; the closest are extended first, the shorter of equally close ones
   * first. Without a budget this runs every scenario of that pruned space up to {@code maxRounds}.
   */
  static Result search(List<Scenario> headers, int maxRounds, long maxRuns, Consumer<String> log) {
    long start = System.nanoTime();
    long cpuStart = cpuNow();
    Set<String> seen = new HashSet<>();
    PriorityQueue<Candidate> queue =
        new PriorityQueue<>(
            Comparator.comparingLong((Candidate c) -> -c.danger())
                .thenComparingInt(c -> c.scenario().rounds().size())
                .thenComparingLong(Candidate::order));
    long order = 0;
    for (Scenario header : headers) {
      queue.add(new Candidate(header, 0, order++));
    }
    long runs = 0;
    int deepest = 0;
    while (!queue.isEmpty()) {
      Candidate parent = queue.poll();
      Scenario prefix = parent.scenario();
      if (prefix.rounds().size() >= maxRounds) {
        continue;
      }
      List<Scenario> children = prefix.choices().stream().map(prefix::with).toList();
      List<ScenarioRunner.Outcome> outcomes = runAll(children, true);
      for (int i = 0; i < children.size(); i++) {
        Scenario scenario = children.get(i);
        ScenarioRunner.Outcome outcome = outcomes.get(i);
        deepest = Math.max(deepest, scenario.rounds().size());
        runs++;
        if (outcome.violation() != null) {
          return new Result(
              runs,
              deepest,
              scenario.id(),
              outcome.violation(),
              millisSince(start),
              cpuSince(cpuStart));
        }
        boolean closer = outcome.danger() > parent.danger();
        if (closer && seen.add(scenario.header() + outcome.state())) {
          queue.add(new Candidate(scenario, outcome.danger(), order++));
        }
      }
      if (runs >= maxRuns) {
        return new Result(runs, deepest, null, null, millisSince(start), cpuSince(cpuStart));
      }
      if (runs / 1000 != (runs - children.size()) / 1000) {
        log.accept(
            String.format(
                "%,d scenarios run, %,d distinct states, deepest %d rounds, %.1f s",
                runs, seen.size(), deepest, millisSince(start) / 1000.0));
      }
    }
    return new Result(runs, deepest, null, null, millisSince(start), cpuSince(cpuStart));
  }

  /** Every scenario of {@code rounds} rounds, over all headers, indexed 0 .. size - 1. */
  static final class Space {
    private final int rounds;
    private final List<Scenario> headers = Scenario.headers();
    private final List<List<Scenario.Round>> choices = new ArrayList<>();
    private final List<BigInteger> offsets = new ArrayList<>();
    private final BigInteger size;
    private final BigInteger stride;

    Space(int rounds) {
      this.rounds = rounds;
      BigInteger total = BigInteger.ZERO;
      for (Scenario header : headers) {
        List<Scenario.Round> menu = header.choices();
        choices.add(menu);
        offsets.add(total);
        total = total.add(BigInteger.valueOf(menu.size()).pow(rounds));
      }
      size = total;
      BigInteger candidate = BigInteger.valueOf(2_654_435_761L).mod(size);
      while (!candidate.gcd(size).equals(BigInteger.ONE)) {
        candidate = candidate.add(BigInteger.ONE);
      }
      stride = candidate;
    }

    BigInteger size() {
      return size;
    }

    /** The scenario at position {@code i} of the scrambled order. */
    Scenario at(long i) {
      BigInteger index = BigInteger.valueOf(i).multiply(stride).mod(size);
      int h = headers.size() - 1;
      while (offsets.get(h).compareTo(index) > 0) {
        h--;
      }
      BigInteger rest = index.subtract(offsets.get(h));
      List<Scenario.Round> menu = choices.get(h);
      BigInteger radix = BigInteger.valueOf(menu.size());
      Scenario scenario = headers.get(h);
      for (int r = 0; r < rounds; r++) {
        BigInteger[] qr = rest.divideAndRemainder(radix);
        scenario = scenario.with(menu.get(qr[1].intValue()));
        rest = qr[0];
      }
      return scenario;
    }
  }

  /**
   * Runs scenarios {@code from} .. {@code from + count - 1} of the scrambled order. Stops at the
   * first violation unless {@code keepGoing}, which logs every violation and returns the first.
   */
  static Result exhaustive(
      int rounds, long from, long count, boolean keepGoing, Consumer<String> log) {
    long start = System.nanoTime();
    long cpuStart = cpuNow();
    Space space = new Space(rounds);
    long end =
        Math.min(from + count, space.size().min(BigInteger.valueOf(Long.MAX_VALUE)).longValue());
    long runs = 0;
    String firstFailing = null;
    String firstViolation = null;
    long violations = 0;
    for (long chunk = from; chunk < end; chunk += CHUNK) {
      List<Scenario> scenarios = new ArrayList<>();
      for (long i = chunk; i < Math.min(end, chunk + CHUNK); i++) {
        scenarios.add(space.at(i));
      }
      List<ScenarioRunner.Outcome> outcomes = runAll(scenarios, false);
      for (int k = 0; k < scenarios.size(); k++) {
        runs++;
        String violation = outcomes.get(k).violation();
        if (violation != null) {
          if (!keepGoing) {
            return new Result(
                runs,
                rounds,
                scenarios.get(k).id(),
                violation,
                millisSince(start),
                cpuSince(cpuStart));
          }
          violations++;
          log.accept("violation in " + scenarios.get(k).id() + ": " + violation);
          if (firstFailing == null) {
            firstFailing = scenarios.get(k).id();
            firstViolation = violation;
          }
        }
      }
      long done = chunk + scenarios.size();
      if (done / CHECKPOINT_EVERY != chunk / CHECKPOINT_EVERY) {
        log.accept(
            String.format(
                "checkpoint: scenarios %,d to %,d of %,d (%d rounds) done, %,d violations;"
                    + " resume with -Dexplorer.from=%d (%.0f scenarios/s)",
                from,
                done,
                space.size(),
                rounds,
                violations,
                done,
                runs * 1000.0 / millisSince(start)));
      }
    }
    return new Result(
        runs, rounds, firstFailing, firstViolation, millisSince(start), cpuSince(cpuStart));
  }

  /** Runs the scenarios on all cores; the outcomes come back in the scenarios' order. */
  private static List<ScenarioRunner.Outcome> runAll(List<Scenario> scenarios, boolean forksOnly) {
    return scenarios.parallelStream()
        .map(s -> forksOnly ? ScenarioRunner.runForForks(s) : ScenarioRunner.run(s))
        .toList();
  }

  /** CPU time of the whole process (all threads), in milliseconds. */
  private static long cpuNow() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1_000_000;
  }

  private static long cpuSince(long cpuStart) {
    return cpuNow() - cpuStart;
  }

  private static long millisSince(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }
}
