package io.rubinbft.orderer.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The blocks being sent to all Deliver readers of a node hold at most its budget: a block that
 * finds it full waits for room, one not taken in its turn while others wait gives way, and readers
 * waiting take turns whatever the number of their streams.
 */
class DeliverBytesTest {

  private static final long MIB = 1L << 20;
  private static final String ALICE = "alice";
  private static final String MALLORY = "mallory";

  private final AtomicLong now = new AtomicLong();

  @Test
  void aBlockBeyondTheBudgetWaitsUntilAnotherReadersBlockLeftTheTransport() throws Exception {
    DeliverBytes budget = new DeliverBytes(20 * MIB, now::get);
    Stream first = new Stream();
    Stream second = new Stream();
    budget.acquire(first, ALICE, 10 * MIB);
    budget.acquire(second, MALLORY, 10 * MIB);

    Waiting third = Waiting.start(budget, new Stream(), ALICE, 10 * MIB);
    assertThat(third.acquired.await(300, TimeUnit.MILLISECONDS)).as("no room yet").isFalse();
    assertThat(budget.used()).isEqualTo(20 * MIB);
    assertThat(budget.blocksWaiting()).isEqualTo(1);

    budget.release(first);
    assertThat(third.acquired.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(budget.used()).isEqualTo(20 * MIB);
    assertThat(budget.blocksWaiting()).isZero();
    assertThat(first.overdue.get() + second.overdue.get() + third.stream.overdue.get()).isZero();
  }

  @Test
  void aReaderThatNeverTakesItsBlockGivesWayToAWaitingOneAfterItsTurn() throws Exception {
    DeliverBytes budget = new DeliverBytes(10 * MIB, now::get);
    Stream stuck = new Stream();
    budget.acquire(stuck, MALLORY, 10 * MIB);

    Waiting waiting = Waiting.start(budget, new Stream(), ALICE, MIB);
    // A 10 MiB block's turn: 2 s and 10 s at 1 MiB/s.
    assertThat(DeliverBytes.turnNanos(10 * MIB)).isEqualTo(TimeUnit.SECONDS.toNanos(12));
    now.set(TimeUnit.SECONDS.toNanos(11));
    assertThat(waiting.acquired.await(2_500, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(stuck.overdue.get()).isZero();

    now.set(TimeUnit.SECONDS.toNanos(12));
    assertThat(waiting.acquired.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(stuck.overdue.get()).isEqualTo(1);
    assertThat(budget.gaveWayTooSlow()).isEqualTo(1);
    assertThat(budget.used()).isEqualTo(MIB);
    budget.release(stuck);
    assertThat(budget.used())
        .as("a late release of a block given way counts nothing")
        .isEqualTo(MIB);
  }

  @Test
  void aReaderAloneKeepsItsBlockHoweverLongItTakes() throws Exception {
    DeliverBytes budget = new DeliverBytes(20 * MIB, now::get);
    Stream slow = new Stream();
    budget.acquire(slow, MALLORY, 10 * MIB);
    now.set(TimeUnit.HOURS.toNanos(1));

    // Another block that fits makes nobody give way either.
    budget.acquire(new Stream(), ALICE, 10 * MIB);
    assertThat(slow.overdue.get()).isZero();
    assertThat(budget.used()).isEqualTo(20 * MIB);
  }

  /**
   * A reader whose block waits behind a stalled reader's is served when that block gives way,
   * before the stalled reader's other streams that began to wait earlier: the stalled reader gets
   * one turn, not one per stream.
   */
  @Test
  void aReaderWaitsForOneTurnOfAnotherReaderWhateverTheNumberOfItsStreams() throws Exception {
    DeliverBytes budget = new DeliverBytes(10 * MIB, now::get);
    Stream stalled = new Stream();
    budget.acquire(stalled, MALLORY, 10 * MIB);
    List<Waiting> mallorysOthers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      mallorysOthers.add(Waiting.start(budget, new Stream(), MALLORY, 10 * MIB));
      awaitWaiting(budget, i + 1);
    }
    Waiting alice = Waiting.start(budget, new Stream(), ALICE, 10 * MIB);
    awaitWaiting(budget, 4);

    now.set(DeliverBytes.turnNanos(10 * MIB));
    assertThat(alice.acquired.await(10, TimeUnit.SECONDS))
        .as("alice is served when mallory's block gives way, before mallory's other streams")
        .isTrue();
    assertThat(stalled.overdue.get()).isEqualTo(1);
    for (Waiting other : mallorysOthers) {
      assertThat(other.acquired.getCount()).isEqualTo(1);
    }

    // Alice's block left the transport; her next block waits behind one of mallory's, not three.
    budget.release(alice.stream);
    Waiting granted = awaitOneOf(mallorysOthers);
    Waiting aliceAgain = Waiting.start(budget, new Stream(), ALICE, 10 * MIB);
    awaitWaiting(budget, 3);
    now.addAndGet(DeliverBytes.turnNanos(10 * MIB));
    assertThat(aliceAgain.acquired.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(granted.stream.overdue.get()).isEqualTo(1);
    assertThat(mallorysOthers.stream().filter(w -> w.acquired.getCount() == 0)).hasSize(1);
    mallorysOthers.forEach(Waiting::cancel);
  }

  @Test
  void aWaitingBlockWhoseCallIsCancelledHoldsNothingAndLetsTheNextIn() throws Exception {
    DeliverBytes budget = new DeliverBytes(10 * MIB, now::get);
    Stream holder = new Stream();
    budget.acquire(holder, MALLORY, 10 * MIB);
    Waiting cancelled = Waiting.start(budget, new Stream(), MALLORY, 10 * MIB);
    awaitWaiting(budget, 1);
    Waiting next = Waiting.start(budget, new Stream(), ALICE, MIB);
    awaitWaiting(budget, 2);

    cancelled.cancel();
    awaitWaiting(budget, 1);
    budget.release(holder);
    assertThat(next.acquired.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(budget.used()).isEqualTo(MIB);
    assertThat(budget.blocksWaiting()).isZero();
  }

  @Test
  void oneBlockLargerThanTheBudgetIsTakenWhenNothingElseIsHeld() throws Exception {
    DeliverBytes budget = new DeliverBytes(MIB, now::get);
    Stream stream = new Stream();

    budget.acquire(stream, ALICE, 10 * MIB);
    assertThat(budget.used()).isEqualTo(10 * MIB);
    budget.release(stream);
    budget.release(stream);
    assertThat(budget.used()).isZero();
  }

  private static void awaitWaiting(DeliverBytes budget, long blocks) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (budget.blocksWaiting() != blocks) {
      assertThat(System.nanoTime()).as("%d blocks waiting", blocks).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private static Waiting awaitOneOf(List<Waiting> waiting) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      for (Waiting w : waiting) {
        if (w.acquired.getCount() == 0) {
          return w;
        }
      }
      assertThat(System.nanoTime()).as("one of them served").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private static final class Stream implements DeliverBytes.Holder {
    final AtomicInteger overdue = new AtomicInteger();

    @Override
    public void overdue() {
      overdue.incrementAndGet();
    }
  }

  /** A block waiting for room on a thread of its own. */
  private record Waiting(Stream stream, CountDownLatch acquired, Thread thread) {

    static Waiting start(DeliverBytes budget, Stream stream, Object reader, long bytes) {
      CountDownLatch acquired = new CountDownLatch(1);
      Thread thread =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      budget.acquire(stream, reader, bytes);
                      acquired.countDown();
                    } catch (InterruptedException e) {
                      // cancelled: nothing held
                    }
                  });
      return new Waiting(stream, acquired, thread);
    }

    void cancel() {
      thread.interrupt();
    }
  }
}
