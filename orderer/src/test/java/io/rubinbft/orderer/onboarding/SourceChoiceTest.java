package io.rubinbft.orderer.onboarding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The choice of a source by claimed heights, on seeded random pools (the seed is printed): the
 * rules hold for every pool, and pulling as the puller does (a source that does not serve what it
 * claimed is distrusted) reaches the highest honest height with at most one try per liar.
 */
class SourceChoiceTest {

  private static final long SEED = new Random().nextLong();
  private static final int POOLS = 2_000;

  @Test
  void theChoiceIsAnAvailableSourceWithTheBestClaimOfItsTier() {
    System.out.println("SourceChoiceTest seed " + SEED);
    Random random = new Random(SEED);
    for (int pool = 0; pool < POOLS; pool++) {
      List<SourceChoice.Candidate> candidates = randomPool(random);
      long next = random.nextInt(20);
      boolean openEnded = random.nextBoolean();
      int start = random.nextInt(candidates.size());
      OptionalInt picked = SourceChoice.pick(candidates, next, openEnded, start);

      String context = "seed " + SEED + ", pool " + pool + ": " + candidates + ", next " + next;
      List<SourceChoice.Candidate> eligible =
          candidates.stream()
              .filter(c -> c.available() && (openEnded || c.claimedHeight() > next))
              .toList();
      assertThat(picked.isPresent()).as(context).isEqualTo(!eligible.isEmpty());
      if (picked.isEmpty()) {
        continue;
      }
      SourceChoice.Candidate chosen = candidates.get(picked.getAsInt());
      assertThat(eligible).as(context).contains(chosen);
      for (SourceChoice.Candidate other : eligible) {
        int tier = tier(other, next);
        assertThat(tier).as(context).isGreaterThanOrEqualTo(tier(chosen, next));
        if (tier == tier(chosen, next)) {
          assertThat(other.claimedHeight()).as(context).isLessThanOrEqualTo(chosen.claimedHeight());
        }
      }
    }
  }

  @Test
  void sourcesClaimingTheSameHeightTakeTurns() {
    List<SourceChoice.Candidate> equal =
        List.of(trusted(10), trusted(10), new SourceChoice.Candidate(false, 10, true), trusted(10));
    assertThat(SourceChoice.pick(equal, 5, false, 0)).hasValue(0);
    assertThat(SourceChoice.pick(equal, 5, false, 1)).hasValue(1);
    assertThat(SourceChoice.pick(equal, 5, false, 2)).hasValue(3);
    assertThat(SourceChoice.pick(equal, 5, false, 3)).hasValue(3);
  }

  @Test
  void aFollowerAtTheTipWaitsOnTheHighestSourceNotOnOneBehind() {
    List<SourceChoice.Candidate> atTip = List.of(trusted(3), trusted(8), trusted(8));
    assertThat(SourceChoice.pick(atTip, 8, true, 0)).hasValue(1);
    assertThat(SourceChoice.pick(atTip, 8, false, 0)).isEmpty();
  }

  /**
   * Pulling from pools of honest sources at random heights and liars that claim more than any of
   * them and serve nothing: the puller reaches the highest honest height, trying each liar at most
   * once, and never asks an honest source that is behind another honest one.
   */
  @Test
  void liarsClaimingHugeHeightsCostOneTryEach() {
    Random random = new Random(SEED);
    for (int pool = 0; pool < POOLS; pool++) {
      int honest = 1 + random.nextInt(5);
      int liars = random.nextInt(4);
      List<Long> heights = new ArrayList<>();
      for (int i = 0; i < honest; i++) {
        heights.add(1L + random.nextInt(50));
      }
      List<Boolean> lying = new ArrayList<>();
      for (int i = 0; i < honest + liars; i++) {
        lying.add(i >= honest);
      }
      java.util.Collections.shuffle(lying, random);
      long top = heights.stream().mapToLong(Long::longValue).max().orElseThrow();
      String context = "seed " + SEED + ", pool " + pool + ", liars at " + lying;

      List<Boolean> trusted = new ArrayList<>(lying.stream().map(l -> true).toList());
      int[] tries = new int[lying.size()];
      long next = 0;
      int honestIndex = 0;
      List<Long> claims = new ArrayList<>();
      for (boolean liar : lying) {
        claims.add(liar ? Long.MAX_VALUE - random.nextInt(1000) : heights.get(honestIndex++));
      }
      int start = 0;
      for (int round = 0; next < top; round++) {
        assertThat(round).as(context).isLessThan(honest + liars + 1);
        List<SourceChoice.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < lying.size(); i++) {
          candidates.add(new SourceChoice.Candidate(true, claims.get(i), trusted.get(i)));
        }
        int picked = SourceChoice.pick(candidates, next, false, start).orElseThrow();
        start = picked + 1;
        tries[picked]++;
        if (lying.get(picked)) {
          trusted.set(picked, false);
        } else {
          assertThat(claims.get(picked)).as(context).isEqualTo(top);
          next = claims.get(picked);
        }
      }
      for (int i = 0; i < lying.size(); i++) {
        if (lying.get(i)) {
          assertThat(tries[i]).as(context).isLessThanOrEqualTo(1);
        }
      }
    }
  }

  private static int tier(SourceChoice.Candidate candidate, long next) {
    return (candidate.claimedHeight() > next ? 0 : 2) + (candidate.trusted() ? 0 : 1);
  }

  private static SourceChoice.Candidate trusted(long height) {
    return new SourceChoice.Candidate(true, height, true);
  }

  private static List<SourceChoice.Candidate> randomPool(Random random) {
    int size = 1 + random.nextInt(7);
    List<SourceChoice.Candidate> pool = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      pool.add(
          new SourceChoice.Candidate(
              random.nextInt(5) > 0,
              random.nextInt(10) == 0 ? Long.MAX_VALUE : random.nextInt(25),
              random.nextInt(4) > 0));
    }
    return pool;
  }
}
