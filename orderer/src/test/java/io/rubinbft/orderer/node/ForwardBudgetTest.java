package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What a consenter may make this node check of forwarded envelopes per second (issue 18: input
 * bounded per source): a sender over its envelopes or bytes is refused until its second is over,
 * and its spending never takes from another sender's.
 */
class ForwardBudgetTest {

  private static final long SECOND = 1_000_000_000L;

  /** A start far from zero, as {@code System.nanoTime()} gives, and from the arrays' zeroes. */
  private static final long START = 7 * SECOND + 123;

  @Test
  void aSenderGetsItsEnvelopesPerSecondAndNoMoreWhileAnotherKeepsItsOwn() {
    ForwardBudget budget = new ForwardBudget();
    for (int i = 0; i < ForwardBudget.ENVELOPES; i++) {
      assertThat(budget.spend(1, 10, START + i)).as("envelope %d", i).isTrue();
    }
    assertThat(budget.spend(1, 10, START + SECOND - 1)).isFalse();
    assertThat(budget.spend(2, 10, START + SECOND - 1)).as("another sender").isTrue();
    assertThat(budget.spend(1, 10, START + SECOND)).as("the next second").isTrue();
  }

  @Test
  void aSenderOverItsBytesIsRefusedWhatDoesNotFitButTakesWhatStillFits() {
    ForwardBudget budget = new ForwardBudget();
    int half = (int) (ForwardBudget.BYTES / 2);
    assertThat(budget.spend(0, half, START)).isTrue();
    assertThat(budget.spend(0, half - 10, START + 1)).isTrue();
    assertThat(budget.spend(0, 11, START + 2)).as("one byte over").isFalse();
    assertThat(budget.spend(0, 10, START + 3)).as("exactly the rest").isTrue();
    assertThat(budget.spend(0, 1, START + 4)).isFalse();
    assertThat(budget.spend(3, half, START + 5)).as("another sender").isTrue();
    assertThat(budget.spend(0, half, START + SECOND)).as("the next second").isTrue();
  }

  @Test
  void aSenderBeyondTheTrackedIndicesIsRefused() {
    ForwardBudget budget = new ForwardBudget();
    assertThat(budget.spend(1023, 1, START)).isTrue();
    assertThat(budget.spend(1024, 1, START)).isFalse();
  }
}
