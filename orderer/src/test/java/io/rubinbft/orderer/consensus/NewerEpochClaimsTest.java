package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NewerEpochClaimsTest {

  private static final long OWN = 5;
  private static final int MEMBERS = 4;
  private static final int F = 1;
  private static final long LIE = 1L << 40;

  private final NewerEpochClaims claims = new NewerEpochClaims();

  @Test
  void oneMembersClaimStartsNothingAndFPlusOneMembersClaimsStartOneCatchUp() {
    assertThat(claim(3, LIE)).isEmpty();
    assertThat(claim(3, LIE + 1)).as("the same liar, a higher epoch").isEmpty();

    assertThat(claim(2, 7)).as("claimed by two members, one of them correct").hasValue(7);
    assertThat(claim(1, 7)).as("told once").isEmpty();
  }

  /**
   * The soak's lying epochs: each round a liar holds another member's keys (the current leader's)
   * and claims a higher epoch, and the member's honest process, restored, sends frames of this
   * node's epoch again. Two rounds' liars are two members, but never at the same time: no catch-up.
   */
  @Test
  void liarsInSuccessiveRoundsEachHoldingAnotherMembersKeysNeverAddUp() {
    long lie = LIE;
    for (int round = 0; round < 2 * MEMBERS; round++) {
      int impersonated = round % MEMBERS;
      assertThat(claim(impersonated, lie++)).as("round %d's lie", round).isEmpty();
      claims.withdraw(OWN, impersonated);
    }
  }

  @Test
  void aMembersFrameOfThisEpochWithdrawsOnlyItsOwnClaim() {
    assertThat(claim(0, 9)).isEmpty();
    claims.withdraw(OWN, 1);
    claims.withdraw(OWN, 2);

    assertThat(claim(2, 9)).as("member 0's claim stands").hasValue(9);
  }

  @Test
  void aMemberThatClaimsAgainAfterAFrameOfThisEpochBacksTheClaimAgain() {
    assertThat(claim(0, 9)).isEmpty();
    claims.withdraw(OWN, 0);
    assertThat(claim(1, 9)).isEmpty();

    assertThat(claim(0, 9)).hasValue(9);
  }

  @Test
  void claimsOfAnEpochThisNodeLeftBackNothingInTheNext() {
    assertThat(claim(0, 9)).isEmpty();
    claims.withdraw(9, 1);

    assertThat(claims.claim(9, MEMBERS, F, 2, 12)).as("member 0 claimed 9 in epoch 5").isEmpty();
    assertThat(claims.claim(9, MEMBERS, F, 3, 12)).hasValue(12);
  }

  /**
   * Any member count, f Byzantine members claiming and withdrawing anything in any order, and some
   * correct members that switched to the next epoch: their frames of this epoch sent before the
   * switch, and a few under way after it (a state-transfer answer read before), interleaved with
   * theirs of the next. No catch-up names an epoch no correct member runs, and once f+1 correct
   * members switched, the catch-up starts, once.
   */
  @Test
  void withdrawalsNeverKeepFPlusOneCorrectMembersFromStartingTheCatchUp() {
    long seed = Long.getLong("claims.seed", System.nanoTime());
    String replay =
        "seed %d (replay: mvn -pl orderer test -Dtest=NewerEpochClaimsTest -Dclaims.seed=%d)"
            .formatted(seed, seed);
    Random random = new Random(seed);
    for (int run = 0; run < 2_000; run++) {
      int members = 1 + random.nextInt(16);
      int f = (members - 1) / 3;
      List<Integer> order = new ArrayList<>();
      for (int m = 0; m < members; m++) {
        order.add(m);
      }
      Collections.shuffle(order, random);
      List<Integer> byzantine = order.subList(0, f);
      int switched = random.nextInt(members - f + 1);
      List<Integer> switchedCorrect = order.subList(f, f + switched);

      List<Deque<Long>> frames = new ArrayList<>();
      for (int m = 0; m < members; m++) {
        frames.add(new ArrayDeque<>());
      }
      for (int m : byzantine) {
        for (int i = random.nextInt(20); i > 0; i--) {
          frames
              .get(m)
              .add(random.nextBoolean() ? OWN : OWN + 1 + (long) (random.nextDouble() * LIE));
        }
      }
      for (int m : order.subList(f, members)) {
        Deque<Long> link = frames.get(m);
        for (int i = random.nextInt(5); i > 0; i--) {
          link.add(OWN);
        }
        if (switchedCorrect.contains(m)) {
          link.add(OWN + 1);
          for (int i = random.nextInt(8); i > 0; i--) {
            link.add(random.nextInt(4) == 0 ? OWN : OWN + 1);
          }
          // Its next frame of the new epoch: at the latest the notice answering this node's.
          link.add(OWN + 1);
        }
      }

      NewerEpochClaims under = new NewerEpochClaims();
      List<Long> caughtUp = new ArrayList<>();
      List<Integer> sending = new ArrayList<>(order);
      sending.removeIf(m -> frames.get(m).isEmpty());
      while (!sending.isEmpty()) {
        int pick = random.nextInt(sending.size());
        int m = sending.get(pick);
        long frameEpoch = frames.get(m).removeFirst();
        if (frameEpoch == OWN) {
          under.withdraw(OWN, m);
        } else {
          under.claim(OWN, members, f, m, frameEpoch).ifPresent(caughtUp::add);
        }
        if (frames.get(m).isEmpty()) {
          sending.set(pick, sending.getLast());
          sending.removeLast();
        }
      }

      assertThat(caughtUp)
          .as("%s, run %d: %d members, %d switched correct ones", replay, run, members, switched)
          .allMatch(epoch -> epoch == OWN + 1);
      if (switched >= f + 1) {
        assertThat(caughtUp)
            .as("%s, run %d: %d members, %d switched correct ones", replay, run, members, switched)
            .containsExactly(OWN + 1);
      }
    }
  }

  private OptionalLong claim(int member, long epoch) {
    return claims.claim(OWN, MEMBERS, F, member, epoch);
  }
}
