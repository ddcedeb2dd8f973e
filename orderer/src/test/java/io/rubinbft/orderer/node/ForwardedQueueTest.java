package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.memory.MemoryBudgets;
import org.junit.jupiter.api.Test;

/**
 * Forwarded envelopes waiting for their check are bounded in bytes per sender (issue 18: input
 * bounded per source): a consenter that forwards more than its budget while the checks lag loses
 * its own envelopes, not another consenter's room, and gets room back as its envelopes are checked.
 */
class ForwardedQueueTest {

  private static final int ENVELOPE = 1_000;
  private static final long CHARGE = ENVELOPE + MemoryBudgets.ITEM_OVERHEAD_BYTES;

  @Test
  void aSenderOverItsBudgetLosesItsOwnEnvelopesAndNotAnotherSendersRoom() throws Exception {
    ForwardedQueue queue = new ForwardedQueue(3 * CHARGE);
    for (int i = 0; i < 3; i++) {
      assertThat(queue.offer(1, new byte[ENVELOPE])).as("envelope %d", i).isTrue();
    }
    assertThat(queue.offer(1, new byte[ENVELOPE])).as("beyond the budget").isFalse();
    assertThat(queue.offer(1, new byte[1])).as("even a small one").isFalse();
    for (int i = 0; i < 3; i++) {
      assertThat(queue.offer(2, new byte[ENVELOPE])).as("another sender's %d", i).isTrue();
    }

    ForwardedQueue.Held first = queue.take();
    assertThat(queue.offer(1, new byte[ENVELOPE])).as("before its check is done").isFalse();
    first.release();
    assertThat(queue.offer(1, new byte[ENVELOPE])).as("after its check").isTrue();
  }

  @Test
  void envelopesAreTakenInTheOrderTheyCame() throws Exception {
    ForwardedQueue queue = new ForwardedQueue(10 * CHARGE);
    byte[] a = {1};
    byte[] b = {2};
    byte[] c = {3};
    queue.offer(2, a);
    queue.offer(1, b);
    queue.offer(2, c);
    assertThat(queue.take().envelope()).isSameAs(a);
    assertThat(queue.take().envelope()).isSameAs(b);
    assertThat(queue.take().envelope()).isSameAs(c);
  }

  @Test
  void anEnvelopeLargerThanTheBudgetPassesOnlyWhileItsSenderHoldsNothing() throws Exception {
    ForwardedQueue queue = new ForwardedQueue(CHARGE);
    assertThat(queue.offer(1, new byte[4 * ENVELOPE])).isTrue();
    assertThat(queue.offer(1, new byte[1])).isFalse();
    queue.take().release();
    assertThat(queue.offer(1, new byte[1])).isTrue();
    assertThat(queue.offer(1, new byte[4 * ENVELOPE])).isFalse();
  }
}
