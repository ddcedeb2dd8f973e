package io.rubinbft.bft.sim;

import static io.rubinbft.bft.sim.ReconfigSweep.change;
import static io.rubinbft.bft.sim.ReconfigSweep.healAndCheck;
import static io.rubinbft.bft.sim.ReconfigSweep.range;
import static io.rubinbft.bft.sim.ReconfigSweep.sorted;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Byzantine members across reconfigurations ({@link ReconfigCluster#makeByzantine}): up to f of
 * each epoch's members (f recomputed per epoch) lie in every way the single-epoch simulator knows
 * ({@link Attack}: equivocating and censoring as primary, wrong digests and checkpoints, bad and
 * other-epoch signatures, replays of older epochs' messages, lying view changes and new views,
 * forged anchors, tampered state transfer and forged catch-up copies, claims of epochs nobody
 * started), while member sets grow and shrink under load with drops, duplicates and delays. A
 * Byzantine node keeps its key across epochs and takes its new replica index at every switch it
 * stays a member through. The checks are {@link ReconfigSimulationTest}'s: agreement, at most one
 * quorum-signed proposal per sequence under the member set in force there, gap-free execution,
 * exactly-once, no delivery past an epoch's end, and liveness once the network heals.
 *
 * <p>Each test runs {@value ReconfigSweep#DEFAULT_SEEDS} seeds ({@code -Dsim.seeds=N}, from {@code
 * -Dsim.first=N}); {@code -Dsim.seed=N} replays one; {@code longSweep} (tag {@code long}) runs
 * {@code -Dsim.seeds} per scenario (default 1,000).
 */
class ReconfigByzantineSimulationTest {

  private static final String CLASS = "ReconfigByzantineSimulationTest";
  private static final String GROW = "byzantineMembersWhileGrowingAndShrinking";
  private static final String PRIMARY = "byzantinePrimaryAtTheSwitchesRemovedInTurn";
  private static final String CATCH_UP = "byzantineMemberLiesToANodeCatchingUpAcrossEpochs";

  /** What a Byzantine primary does to the proposals it makes (one of them, at least). */
  private static final List<Attack> AS_PRIMARY =
      List.of(
          Attack.EQUIVOCATE,
          Attack.CENSOR,
          Attack.WRONG_DIGEST,
          Attack.STALE_EPOCH,
          Attack.LYING_NEW_VIEW);

  @Test
  void byzantineMembersWhileGrowingAndShrinking() {
    sweep(GROW, seed -> grow(seed), 5000);
  }

  /**
   * Seeds (two of the first from 800,000 since view changes wait for f + 1 complaints and carry
   * proposals by digest; before, 800,218 and 901,004 of the long sweep) where the newest epoch's
   * members stalled in the 7-member epoch: only nodes the shrink removed (and Byzantine ones) had
   * executed its end, so the members left there could not form a quorum of view changes and no
   * newer-epoch frame reached them. Their hosts must pull the epoch end from the removed nodes'
   * ledgers once their view change stalls.
   */
  @ParameterizedTest
  @ValueSource(longs = {800_046, 800_114})
  void membersStalledBehindAnEpochEndOnlyRemovedNodesExecutedPullIt(long seed) {
    int[] pulls = {0};
    ReconfigSweep.run(CLASS, GROW, s -> pulls[0] = grow(s), seed, 1);
    assertThat(pulls[0]).as("catch-ups after a stalled view change").isPositive();
  }

  /**
   * Node 0 is the primary of view 0 in every epoch here, so it proposes the switches unless a view
   * change moved the primary; over a sweep it must have proposed some itself.
   */
  @Test
  void byzantinePrimaryAtTheSwitchesRemovedInTurn() {
    int[] proposed = {0};
    int seeds = sweep(PRIMARY, seed -> proposed[0] += primaryAtTheSwitch(seed), 6000);
    if (seeds >= ReconfigSweep.DEFAULT_SEEDS) {
      assertThat(proposed[0]).as("epoch-ending pre-prepares a Byzantine primary sent").isPositive();
    }
  }

  /** Over a sweep, some catch-up must have tried the liar and refused what it served. */
  @Test
  void byzantineMemberLiesToANodeCatchingUpAcrossEpochs() {
    int[] refused = {0};
    int seeds = sweep(CATCH_UP, seed -> refused[0] += catchUpFromLiar(seed), 7000);
    if (seeds >= ReconfigSweep.DEFAULT_SEEDS) {
      assertThat(refused[0]).as("catch-up copies refused").isPositive();
    }
  }

  @Test
  @Tag("long")
  void longSweep() {
    int seeds = Integer.getInteger("sim.seeds", 1000);
    ReconfigSweep.run(CLASS, GROW, seed -> grow(seed), 500_000, seeds);
    ReconfigSweep.run(CLASS, PRIMARY, seed -> primaryAtTheSwitch(seed), 600_000, seeds);
    ReconfigSweep.run(CLASS, CATCH_UP, seed -> catchUpFromLiar(seed), 700_000, seeds);
  }

  /**
   * 4 -> 5 -> 7 -> a random 4 of the 7 with nodes crashing before WAL syncs: one Byzantine member
   * through all the epochs it belongs to (half the time node 0, the primary of view 0 at every
   * switch), and half the time a second one that only the 7-member epoch holds (f = 2 there).
   * Returns the catch-ups that stalled view changes started.
   */
  static int grow(long seed) {
    Random random = new Random(seed);
    ReconfigCluster cluster = ReconfigCluster.of(4, 7, seed);
    cluster.faults(0.05, 0.02, 1 + random.nextInt(5));
    cluster.storageFaults(0.01, 30);
    int member = random.nextBoolean() ? 0 : random.nextInt(4);
    int joiner = random.nextBoolean() ? 5 + random.nextInt(2) : -1;
    cluster.makeByzantine(member, Attack.draw(random));
    if (joiner >= 0) {
      cluster.makeByzantine(joiner, Attack.draw(random));
    }
    List<Integer> shuffled = new ArrayList<>(range(7));
    Collections.shuffle(shuffled, random);
    List<Integer> shrunk = new ArrayList<>(shuffled.subList(0, 4));
    if (shrunk.contains(member) && shrunk.contains(joiner)) {
      shrunk.set(shrunk.indexOf(joiner), shuffled.get(4)); // f = 1 again: one Byzantine at most
    }
    for (List<Integer> members : List.of(range(5), range(7), sorted(shrunk))) {
      change(cluster, random, members);
    }
    healAndCheck(cluster);
    return cluster.pullsAfterStalledViewChanges();
  }

  /**
   * Seven members, two of them Byzantine: node 0, which lies as primary, and another. Node 0
   * proposes (as primary of view 0) the removal of the other, which leaves six members (f = 1),
   * then its own removal; afterwards no executed certificate holds either's signature.
   */
  static int primaryAtTheSwitch(long seed) {
    Random random = new Random(seed);
    ReconfigCluster cluster = ReconfigCluster.of(7, 7, seed);
    cluster.faults(0.05, 0.02, 1 + random.nextInt(5));
    int other = 1 + random.nextInt(6);
    Set<Attack> asPrimary = Attack.draw(random);
    asPrimary.add(AS_PRIMARY.get(random.nextInt(AS_PRIMARY.size())));
    cluster.makeByzantine(0, asPrimary);
    cluster.makeByzantine(other, Attack.draw(random));
    cluster.submit(10);
    cluster.runTicks(random.nextInt(100));
    List<Integer> members = new ArrayList<>(range(7));
    members.remove(Integer.valueOf(other));
    change(cluster, random, members);
    long otherRemovedAt = cluster.newestEpoch();
    members.remove(Integer.valueOf(0));
    change(cluster, random, members);
    long primaryRemovedAt = cluster.newestEpoch();
    healAndCheck(cluster);
    for (int node : cluster.liveNodes()) {
      assertThat(cluster.signersAfter(node, otherRemovedAt)).doesNotContain(other);
      assertThat(cluster.signersAfter(node, primaryRemovedAt)).doesNotContain(0, other);
    }
    return cluster.switchesProposedByByzantine();
  }

  /**
   * Seven of eight nodes are members (f = 2): one Byzantine member serves tampered copies to nodes
   * catching up from it and claims epochs nobody started (so that peers try it first), while a
   * correct member is down through two switches that swap node 7 in for another and back; the
   * sleeper catches up across both, and the tampered copies are refused. Returns the refusals.
   */
  static int catchUpFromLiar(long seed) {
    Random random = new Random(seed);
    ReconfigCluster cluster = ReconfigCluster.of(7, 8, seed);
    cluster.faults(0.05, 0.02, 1 + random.nextInt(5));
    int liar = random.nextInt(7);
    int sleeper = (liar + 1 + random.nextInt(6)) % 7;
    Set<Attack> attacks = Attack.draw(random);
    attacks.remove(Attack.SILENT);
    attacks.add(Attack.LYING_CATCH_UP);
    attacks.add(Attack.FUTURE_EPOCH);
    cluster.makeByzantine(liar, attacks);
    List<Integer> others = new ArrayList<>(range(7));
    others.removeAll(List.of(liar, sleeper));
    int swapped = others.get(random.nextInt(others.size()));
    cluster.submit(10);
    cluster.runTicks(random.nextInt(60));
    cluster.crash(sleeper);
    List<Integer> swappedOut = new ArrayList<>(range(8));
    swappedOut.remove(Integer.valueOf(swapped));
    change(cluster, random, swappedOut);
    change(cluster, random, range(7));
    cluster.restart(sleeper);
    healAndCheck(cluster);
    assertThat(cluster.executedAt(sleeper))
        .isEqualTo(cluster.executedAt(cluster.liveNodes().getFirst()));
    return (int)
        cluster.hostDrops().entrySet().stream()
            .filter(drop -> drop.getKey().startsWith("bad copy"))
            .mapToLong(drop -> drop.getValue())
            .sum();
  }

  private static int sweep(String test, LongConsumer scenario, long first) {
    return ReconfigSweep.sweep(CLASS, test, scenario, first);
  }
}
