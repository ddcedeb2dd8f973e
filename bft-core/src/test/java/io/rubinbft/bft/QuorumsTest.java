package io.rubinbft.bft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Quorum sizes against a naive definition: the smallest sizes with the properties PBFT needs. */
class QuorumsTest {

  @Test
  void matchesPbftForThreeFPlusOne() {
    for (int f = 0; f <= 30; f++) {
      Quorums quorums = new Quorums(3 * f + 1);
      assertThat(quorums.f()).isEqualTo(f);
      assertThat(quorums.quorum()).isEqualTo(2 * f + 1);
      assertThat(quorums.weakQuorum()).isEqualTo(f + 1);
    }
  }

  @Test
  void isTheSmallestSizeWhoseIntersectionsHoldACorrectReplica() {
    for (int n = 1; n <= 200; n++) {
      Quorums quorums = new Quorums(n);
      int f = quorums.f();
      assertThat(naiveSmallestSafeQuorum(n, f)).as("n=%d", n).isEqualTo(quorums.quorum());
      assertThat(quorums.quorum()).as("live with f silent, n=%d", n).isLessThanOrEqualTo(n - f);
    }
  }

  @Test
  void rejectsEmptyReplicaSets() {
    assertThatThrownBy(() -> new Quorums(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("replica count is 0 but must be at least 1");
  }

  /** Smallest q such that two sets of q out of n replicas always share at least f + 1. */
  private static int naiveSmallestSafeQuorum(int n, int f) {
    for (int q = 1; q <= n; q++) {
      int worstOverlap = Math.max(0, 2 * q - n);
      if (worstOverlap >= f + 1) {
        return q;
      }
    }
    throw new AssertionError("no safe quorum for n=" + n);
  }
}
