package io.rubinbft.orderer.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The blocks being sent to all Deliver readers of a node hold at most its budget: a reader whose
 * block finds it full waits for room, and one that does not take its block in time gives way.
 */
class DeliverBytesTest {

  private static final long MIB = 1L << 20;

  private final AtomicLong now = new AtomicLong();

  @Test
  void aBlockBeyondTheBudgetWaitsUntilAnotherReadersBlockLeftTheTransport() throws Exception {
    DeliverBytes budget = new DeliverBytes(20 * MIB, now::get);
    Reader first = new Reader();
    Reader second = new Reader();
    Reader third = new Reader();
    budget.acquire(first, 10 * MIB);
    budget.acquire(second, 10 * MIB);

    CountDownLatch acquired = new CountDownLatch(1);
    Thread waiting =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    budget.acquire(third, 10 * MIB);
                    acquired.countDown();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    assertThat(acquired.await(300, TimeUnit.MILLISECONDS)).as("no room yet").isFalse();
    assertThat(budget.used()).isEqualTo(20 * MIB);

    budget.release(first);
    assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
    waiting.join();
    assertThat(budget.used()).isEqualTo(20 * MIB);
    assertThat(first.overdue.get() + second.overdue.get() + third.overdue.get()).isZero();
  }

  @Test
  void aReaderThatNeverTakesItsBlockGivesWayToAWaitingOneAfterItsDeadline() throws Exception {
    DeliverBytes budget = new DeliverBytes(10 * MIB, now::get);
    Reader stuck = new Reader();
    Reader waiting = new Reader();
    budget.acquire(stuck, 10 * MIB);

    CountDownLatch acquired = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                budget.acquire(waiting, MIB);
                acquired.countDown();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    // Within the grace and the block's time at the slowest rate, the stuck reader keeps it.
    now.set(DeliverBytes.GRACE.toNanos() + TimeUnit.SECONDS.toNanos(39));
    assertThat(acquired.await(2_500, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(stuck.overdue.get()).isZero();

    now.set(DeliverBytes.GRACE.toNanos() + TimeUnit.SECONDS.toNanos(41));
    assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(stuck.overdue.get()).isEqualTo(1);
    assertThat(budget.used()).isEqualTo(MIB);
    budget.release(stuck);
    assertThat(budget.used())
        .as("a late release of a block given way counts nothing")
        .isEqualTo(MIB);
  }

  @Test
  void oneBlockLargerThanTheBudgetIsTakenWhenNothingElseIsHeld() throws Exception {
    DeliverBytes budget = new DeliverBytes(MIB, now::get);
    Reader reader = new Reader();

    budget.acquire(reader, 10 * MIB);
    assertThat(budget.used()).isEqualTo(10 * MIB);
    budget.release(reader);
    budget.release(reader);
    assertThat(budget.used()).isZero();
  }

  private static final class Reader implements DeliverBytes.Holder {
    final AtomicInteger overdue = new AtomicInteger();

    @Override
    public void overdue() {
      overdue.incrementAndGet();
    }
  }
}
