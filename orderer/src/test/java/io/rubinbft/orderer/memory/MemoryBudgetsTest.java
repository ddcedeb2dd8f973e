package io.rubinbft.orderer.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryBudgetsTest {

  private static final long MB = 1L << 20;

  /**
   * The standard budgets: every peer link, every peer's and the clients' input and the request pool
   * of a node with one channel and three peers take well under half of the 84 MB heap they were
   * tuned on.
   */
  @Test
  void theStandardBudgetsOfOneChannelTakeLessThanHalfOfTheHeapTheyWereTunedOn() {
    MemoryBudgets budgets = MemoryBudgets.standard();
    int peers = 3;

    long queues =
        peers * (budgets.peerLinkBytes() + budgets.peerInputBytes())
            + budgets.clientInputBytes()
            + budgets.requestPoolBytes();

    assertThat(queues).isLessThan(84 * MB / 2);
    assertThat(budgets.requestPoolBytes()).isEqualTo(21 * MB);
  }

  /**
   * A state-transfer answer, from memory or from the ledger, fits half of a peer's link and input
   * budget, so it is neither pushed out by the votes queued behind it nor refused beside them, and
   * never exceeds bft-core's 4 MiB.
   */
  @Test
  void ledgerAnswersFitHalfAPeersQueues() {
    MemoryBudgets budgets = MemoryBudgets.standard();

    assertThat(MessageLimits.answerBytes(budgets))
        .isPositive()
        .isLessThanOrEqualTo(budgets.peerLinkBytes() / 2)
        .isLessThanOrEqualTo(budgets.peerInputBytes() / 2)
        .isLessThanOrEqualTo(MessageLimits.DECISIONS_ANSWER_BYTES);
  }

  @Test
  void thePoolsRefusalNamesTheChannelsByteBound() {
    PoolBytes pool = new PoolBytes(1_000);

    assertThat(pool.refusal(900, 100)).isEmpty();
    assertThat(pool.refusal(900, 101).orElseThrow().message())
        .isEqualTo("pool full: 900 bytes pending on this channel, at most 1000, retry later");
  }

  @Test
  void aBudgetTakesOneItemLargerThanItselfOnlyWhenEmpty() {
    ByteBudget budget = new ByteBudget(100);

    assertThat(budget.tryReserve(60)).isTrue();
    assertThat(budget.tryReserve(60)).isFalse();
    budget.release(60);
    assertThat(budget.tryReserve(500)).isTrue();
    assertThat(budget.tryReserve(1)).isFalse();
  }
}
