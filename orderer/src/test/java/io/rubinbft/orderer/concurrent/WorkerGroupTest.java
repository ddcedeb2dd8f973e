package io.rubinbft.orderer.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class WorkerGroupTest {

  @Test
  void aGroupOfRunningOrStoppedWorkersHasNoFailure() {
    WorkerGroup group = new WorkerGroup();
    CountDownLatch never = new CountDownLatch(1);
    Worker waiting = Worker.named("waiting").partOf(group, "waiter").start(self -> never.await());
    Worker done = Worker.named("done").partOf(group, "finisher").start(self -> {});

    assertThat(group.failure()).isEmpty();
    waiting.close();
    done.close();
    assertThat(group.failure()).isEmpty();
  }

  @Test
  void theFirstFailedMemberIsReportedByItsRole() throws Exception {
    WorkerGroup group = new WorkerGroup();
    CountDownLatch never = new CountDownLatch(1);
    Worker running = Worker.named("running").partOf(group, "waiter").start(self -> never.await());
    Worker failed =
        Worker.named("failing")
            .partOf(group, "ledger writer")
            .start(
                self -> {
                  throw new IllegalStateException("disk full");
                });

    awaitEnd(failed);

    assertThat(group.failure())
        .contains("ledger writer stopped: java.lang.IllegalStateException: disk full");
    running.close();
  }

  @Test
  void anErrorEndingAMemberIsAFailureToo() throws Exception {
    WorkerGroup group = new WorkerGroup();
    Worker failed =
        Worker.named("erring")
            .partOf(group, "archive reader")
            .start(
                self -> {
                  throw new AssertionError("broken invariant");
                });

    awaitEnd(failed);

    assertThat(group.failure())
        .contains("archive reader stopped: java.lang.AssertionError: broken invariant");
  }

  /** Waits for the body to end by itself: a close before it threw would make that no failure. */
  private static void awaitEnd(Worker worker) throws InterruptedException {
    while (worker.alive()) {
      Thread.sleep(1);
    }
  }
}
