package io.rubinbft.bft.sim;

import static io.rubinbft.bft.sim.ReconfigSweep.change;
import static io.rubinbft.bft.sim.ReconfigSweep.healAndCheck;
import static io.rubinbft.bft.sim.ReconfigSweep.range;
import static io.rubinbft.bft.sim.ReconfigSweep.sorted;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Consenter reconfiguration in the seeded simulator ({@link ReconfigCluster}): member sets grow and
 * shrink, the leader is removed, a removed node turns Byzantine, a node sleeps through switches,
 * all under client load with drops, duplicates and delays. After every step the invariant checker
 * checks agreement over every executed decision of every node and epoch, that no two proposals at a
 * sequence ever hold a quorum of commit signatures of the members in force there (counting every
 * commit any node emitted, in any epoch), gap-free execution, that no request is ordered twice, and
 * that no replica delivers past its epoch's end; once the network heals, every request must be
 * executed by every live member (liveness).
 *
 * <p>Each test runs {@value ReconfigSweep#DEFAULT_SEEDS} seeds ({@code -Dsim.seeds=N}, from {@code
 * -Dsim.first=N}); {@code -Dsim.seed=N} replays one. The {@code long} variant runs 1,000 seeds per
 * scenario: {@code ./test.sh -pl bft-core -Plong -Dtest=ReconfigSimulationTest}.
 */
class ReconfigSimulationTest {

  // Test method names: a failure's replay command names the method that runs the scenario.
  private static final String GROW = "growFourToFiveToSevenAndShrinkBackToFourUnderLoad";
  private static final String REMOVE_LEADER = "removeTheCurrentLeaderTwice";
  private static final String ROGUE = "removedNodeTurnedByzantineCannotInfluenceOrdering";
  private static final String SLEEPER = "nodeDownThroughTwoSwitchesCatchesUpAcrossEpochs";

  @Test
  void growFourToFiveToSevenAndShrinkBackToFourUnderLoad() {
    sweep(GROW, ReconfigSimulationTest::grow, 1000);
  }

  @Test
  void removeTheCurrentLeaderTwice() {
    sweep(REMOVE_LEADER, ReconfigSimulationTest::removeLeader, 2000);
  }

  @Test
  void removedNodeTurnedByzantineCannotInfluenceOrdering() {
    sweep(ROGUE, ReconfigSimulationTest::rogue, 3000);
  }

  @Test
  void nodeDownThroughTwoSwitchesCatchesUpAcrossEpochs() {
    sweep(SLEEPER, ReconfigSimulationTest::sleeper, 4000);
  }

  @Test
  @Tag("long")
  void longSweep() {
    int seeds = Integer.getInteger("sim.seeds", 1000);
    run(GROW, ReconfigSimulationTest::grow, 100_000, seeds);
    run(REMOVE_LEADER, ReconfigSimulationTest::removeLeader, 200_000, seeds);
    run(ROGUE, ReconfigSimulationTest::rogue, 300_000, seeds);
    run(SLEEPER, ReconfigSimulationTest::sleeper, 400_000, seeds);
  }

  /**
   * 4 -> 5 -> 7 -> a random 4 of the 7, each change once the previous one took effect; nodes also
   * crash before a WAL sync now and then (losing that step) and restart 30 ticks later, in whatever
   * epoch they were in.
   */
  static void grow(long seed) {
    Random random = new Random(seed);
    ReconfigCluster cluster = ReconfigCluster.of(4, 7, seed);
    cluster.faults(0.05, 0.02, 1 + random.nextInt(5));
    cluster.storageFaults(0.01, 30);
    List<Integer> shrunk = new ArrayList<>(range(7));
    Collections.shuffle(shrunk, random);
    List<List<Integer>> steps = List.of(range(5), range(7), sorted(shrunk.subList(0, 4)));
    for (List<Integer> members : steps) {
      change(cluster, random, members);
    }
    healAndCheck(cluster);
    assertThat(cluster.newestMembers()).isEqualTo(steps.getLast());
  }

  /** Seven members; twice the current leader (moved off the first member now and then) goes. */
  static void removeLeader(long seed) {
    Random random = new Random(seed);
    ReconfigCluster cluster = ReconfigCluster.of(7, 7, seed);
    cluster.faults(0.05, 0.02, 1 + random.nextInt(5));
    Map<Integer, Long> removedAt = new HashMap<>();
    for (int round = 0; round < 2; round++) {
      cluster.submit(10);
      if (random.nextBoolean()) {
        cluster.isolate(cluster.leader());
        cluster.submit(5);
        cluster.runTicks(200 + random.nextInt(100));
        cluster.heal();
      }
      int leader = cluster.leader();
      List<Integer> members = new ArrayList<>(cluster.newestMembers());
      members.remove(Integer.valueOf(leader));
      change(cluster, random, members);
      removedAt.put(leader, cluster.newestEpoch());
    }
    healAndCheck(cluster);
    for (int node : cluster.liveNodes()) {
      removedAt.forEach(
          (leader, epoch) -> assertThat(cluster.signersAfter(node, epoch)).doesNotContain(leader));
    }
  }

  /**
   * Five members; one is removed and turns Byzantine (keeps its old replica voting, replays and
   * forges messages of both epochs, serves tampered decisions to nodes catching up from it), while
   * another member sleeps through the switch and catches up after it.
   */
  static void rogue(long seed) {
    Random random = new Random(seed);
    ReconfigCluster cluster = ReconfigCluster.of(5, 5, seed);
    cluster.faults(0.05, 0.02, 1 + random.nextInt(5));
    int rogue = random.nextInt(5);
    int sleeper = (rogue + 1 + random.nextInt(4)) % 5;
    cluster.turnsByzantineWhenRemoved(rogue);
    cluster.submit(10);
    cluster.runTicks(random.nextInt(60));
    cluster.crash(sleeper);
    List<Integer> members = new ArrayList<>(range(5));
    members.remove(Integer.valueOf(rogue));
    change(cluster, random, members);
    long removedAt = cluster.newestEpoch();
    cluster.restart(sleeper);
    cluster.submit(20);
    cluster.runTicks(100 + random.nextInt(200));
    healAndCheck(cluster);
    for (int node : cluster.liveNodes()) {
      assertThat(cluster.signersAfter(node, removedAt)).doesNotContain(rogue);
    }
    assertThat(cluster.hostDrops()).containsKeys("older epoch", "not a member");
  }

  /**
   * A genesis member is down while the set grows 4 -> 5 -> 7, and the last new node is cut off
   * while it is added; both catch up across the epochs they missed once back.
   */
  static void sleeper(long seed) {
    Random random = new Random(seed);
    ReconfigCluster cluster = ReconfigCluster.of(4, 7, seed);
    cluster.faults(0.05, 0.02, 1 + random.nextInt(5));
    int sleeper = random.nextInt(4);
    cluster.submit(10);
    cluster.runTicks(random.nextInt(60));
    cluster.crash(sleeper);
    change(cluster, random, range(5));
    cluster.isolate(6);
    change(cluster, random, range(7));
    cluster.restart(sleeper);
    healAndCheck(cluster);
    for (int node : List.of(sleeper, 6)) {
      assertThat(cluster.membersAt(node)).isEqualTo(range(7));
      assertThat(cluster.executedAt(node)).isEqualTo(cluster.executedAt(0));
    }
  }

  private static void sweep(String test, LongConsumer scenario, long first) {
    ReconfigSweep.sweep("ReconfigSimulationTest", test, scenario, first);
  }

  private static void run(String test, LongConsumer scenario, long first, int seeds) {
    ReconfigSweep.run("ReconfigSimulationTest", test, scenario, first, seeds);
  }
}
